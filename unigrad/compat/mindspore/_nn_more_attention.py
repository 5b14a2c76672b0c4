"""MindSpore's attention layers: ``nn.MultiheadAttention``, ``nn.TransformerEncoderLayer``,
``nn.TransformerDecoderLayer``, ``nn.TransformerEncoder``, ``nn.TransformerDecoder`` and
``nn.Transformer``, with MindSpore's arguments (``has_bias``), Parameter names
(``in_proj_weight``, ``out_proj.weight``, ``dense1.weight``, ``norm1.gamma``...) and
initializers; the attention itself is the core's ``multi_head_attention_forward``.

Example:
    >>> import unigrad.compat.mindspore as ms
    >>> from unigrad.compat.mindspore import nn
    >>> attention = nn.MultiheadAttention(4, 2)
    >>> [parameter.name for parameter in attention.get_parameters()]
    ['in_proj_weight', 'in_proj_bias', 'out_proj.weight', 'out_proj.bias']
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable

import unigrad as _ug

from ...ops.nn_attention import canonical_mask, multi_head_attention_forward
from ._nn_norm import LayerNorm
from ._tensor import Parameter
from .common.initializer import HeUniform, Uniform, XavierNormal, XavierUniform, initializer
from .dtype import float32
from .nn import GELU, Cell, CellList, Dense, Dropout, ReLU

__all__ = ["MultiheadAttention", "TransformerEncoderLayer", "TransformerDecoderLayer",
           "TransformerEncoder", "TransformerDecoder", "Transformer"]


def _dense(in_channels: int, out_channels: int, has_bias: bool, dtype) -> Dense:
    """MindSpore's projection: He-uniform(sqrt 5) weight, ``U(+-1/sqrt(in_channels))`` bias."""
    return Dense(in_channels, out_channels, has_bias=has_bias,
                 weight_init=HeUniform(math.sqrt(5)),
                 bias_init=Uniform(1 / math.sqrt(in_channels)), dtype=dtype)


def _checked_mask(mask, name: str, query_dtype):
    """A bool or floating mask as the core's additive float mask (MindSpore refuses other
    dtypes)."""
    if mask is None:
        return None
    if mask.dtype != _ug.bool and not mask.is_floating_point():
        raise ValueError(f"only bool and floating types of {name} are supported")
    return canonical_mask(mask, name, query_dtype)


class MultiheadAttention(Cell):
    """``nn.MultiheadAttention(embed_dim, num_heads, dropout=0.0, has_bias=True,
    add_bias_kv=False, add_zero_attn=False, kdim=None, vdim=None, batch_first=False,
    dtype=ms.float32)``: called as ``attention(query, key, value, key_padding_mask=None,
    need_weights=True, attn_mask=None, average_attn_weights=True)``, returns
    ``(output, weights)``, or ``(output,)`` when ``need_weights`` is False.

    Inputs are ``(L, N, E)`` (``(N, L, E)`` with ``batch_first``); ``in_proj_weight``
    (or ``q/k/v_proj_weight`` when ``kdim``/``vdim`` differ) is Xavier-uniform, biases zero.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> attention = nn.MultiheadAttention(4, 2)
        >>> output, weights = attention(*[ms.ops.ones((3, 1, 4), ms.float32)] * 3)
        >>> output.shape, weights.shape
        ((3, 1, 4), (1, 3, 3))
    """

    def __init__(self, embed_dim: int, num_heads: int, dropout: float = 0.0,
                 has_bias: bool = True, add_bias_kv: bool = False, add_zero_attn: bool = False,
                 kdim: int | None = None, vdim: int | None = None, batch_first: bool = False,
                 dtype=float32):
        super().__init__()
        self.embed_dim, self.num_heads, self.dropout = embed_dim, num_heads, dropout
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.batch_first, self.head_dim = batch_first, embed_dim // num_heads
        if self.head_dim * num_heads != embed_dim:
            raise ValueError("The init argument 'embed_dim' must be divisible by 'num_heads'.")
        dtype = float32 if dtype is None else dtype
        self._build_projections(has_bias, dtype)
        self.out_proj = _dense(embed_dim, embed_dim, has_bias, dtype)
        self.bias_k = self.bias_v = None
        if add_bias_kv:
            self.bias_k = self._parameter(XavierNormal(), (1, 1, embed_dim), dtype, "bias_k")
            self.bias_v = self._parameter(XavierNormal(), (1, 1, embed_dim), dtype, "bias_v")
        self.add_zero_attn, self.dtype = add_zero_attn, dtype

    @staticmethod
    def _parameter(init, shape: tuple, dtype, name: str) -> Parameter:
        return Parameter(initializer(init, shape, dtype), name)

    def _build_projections(self, has_bias: bool, dtype) -> None:
        embed_dim = self.embed_dim
        self.in_proj_weight = self.q_proj_weight = self.k_proj_weight = None
        self.v_proj_weight = None
        if self._qkv_same_embed_dim:
            self.in_proj_weight = self._parameter(XavierUniform(), (3 * embed_dim, embed_dim),
                                                  dtype, "in_proj_weight")
        else:
            for name, size in (("q", embed_dim), ("k", self.kdim), ("v", self.vdim)):
                setattr(self, f"{name}_proj_weight", self._parameter(
                    XavierUniform(), (embed_dim, size), dtype, f"{name}_proj_weight"))
        self.in_proj_bias = self._parameter("zeros", (3 * embed_dim,), dtype,
                                            "in_proj_bias") if has_bias else None

    def construct(self, query, key, value, key_padding_mask=None, need_weights: bool = True,
                  attn_mask=None, average_attn_weights: bool = True):
        key_padding_mask = _checked_mask(key_padding_mask, "key_padding_mask", query.dtype)
        attn_mask = _checked_mask(attn_mask, "attn_mask", query.dtype)
        batched = query.ndim == 3
        if self.batch_first and batched:
            query, key, value = (_ug.swapaxes(x, 0, 1) for x in (query, key, value))
        output, weights = multi_head_attention_forward(
            query, key, value, self.embed_dim, self.num_heads, self.in_proj_weight,
            self.in_proj_bias, self.bias_k, self.bias_v, self.add_zero_attn, self.dropout,
            self.out_proj.weight, self.out_proj.bias, training=self.training,
            key_padding_mask=key_padding_mask, need_weights=need_weights, attn_mask=attn_mask,
            use_separate_proj_weight=not self._qkv_same_embed_dim,
            q_proj_weight=self.q_proj_weight, k_proj_weight=self.k_proj_weight,
            v_proj_weight=self.v_proj_weight, average_attn_weights=average_attn_weights)
        if self.batch_first and batched:
            output = _ug.swapaxes(output, 0, 1)
        return (output, weights) if need_weights else (output,)

    def extend_repr(self) -> str:
        return ""


def _activation(activation) -> Callable:
    """``'relu'``/``'gelu'`` as ``ops.relu``/``ops.gelu``; those functions as given. As in
    MindSpore, other callables and Cells (``nn.ReLU()`` included, being callable) are
    refused."""
    from . import ops
    if not isinstance(activation, (str, Cell)) and not callable(activation):
        raise ValueError(f"The argument 'activation' must be str, callable or Cell instance, "
                         f"but get {activation}.")
    if isinstance(activation, Cell) and not isinstance(activation, (ReLU, GELU)):
        raise ValueError(f"The argument 'activation' must be nn.ReLU or nn.GELU instance, "
                         f"but get {activation}.")
    if callable(activation) and activation is not ops.relu and activation is not ops.gelu:
        raise ValueError(f"The argument 'activation' must be ops.relu or ops.gelu instance, "
                         f"but get {activation}.")
    if isinstance(activation, str):
        if activation not in ("relu", "gelu"):
            raise ValueError(f"The activation must be relu/gelu, but get {activation}")
        return ops.relu if activation == "relu" else ops.gelu
    return activation


class _FeedForwardLayer(Cell):
    """The attention(s), ``dense1``/``dropout``/``dense2`` and the ``norm``/``dropout``
    Cells an encoder or decoder layer is made of, in MindSpore's order."""

    _attentions: tuple = ()

    def __init__(self, d_model: int, nhead: int, dim_feedforward: int = 2048,
                 dropout: float = 0.1, activation="relu", layer_norm_eps: float = 1e-5,
                 batch_first: bool = False, norm_first: bool = False, dtype=float32):
        super().__init__()
        for name in self._attentions:
            setattr(self, name, MultiheadAttention(d_model, nhead, dropout=dropout,
                                                   batch_first=batch_first, dtype=dtype))
        self.dense1 = _dense(d_model, dim_feedforward, True, dtype)
        self.dropout = Dropout(p=dropout)
        self.dense2 = _dense(dim_feedforward, d_model, True, dtype)
        self.norm_first = norm_first
        count = len(self._attentions) + 1
        for index in range(1, count + 1):
            setattr(self, f"norm{index}", LayerNorm((d_model,), epsilon=layer_norm_eps,
                                                    dtype=dtype))
        for index in range(1, count + 1):
            setattr(self, f"dropout{index}", Dropout(p=dropout))
        self.activation1 = activation
        self.activation = _activation(activation)
        self.d_model, self.nhead, self.dim_feedforward = d_model, nhead, dim_feedforward
        self.dropout_num, self.layernorm_eps = dropout, layer_norm_eps
        self.batch_first, self.dtype = batch_first, dtype

    def _arguments(self) -> tuple:
        """The constructor's arguments (to build fresh copies, as MindSpore's stacks do)."""
        return (self.d_model, self.nhead, self.dim_feedforward, self.dropout_num,
                self.activation1, self.layernorm_eps, self.batch_first, self.norm_first,
                self.dtype)

    def _attend(self, attention: Cell, x, memory, attn_mask, key_padding_mask, dropout: Cell):
        return dropout(attention(x, memory, memory, attn_mask=attn_mask,
                                 key_padding_mask=key_padding_mask, need_weights=False)[0])

    def _ff_block(self, x, dropout: Cell):
        return dropout(self.dense2(self.dropout(self.activation(self.dense1(x)))))

    def _blocks(self, x, blocks: list):
        """``x`` through ``blocks`` (functions of their input), each with a residual and
        its LayerNorm (before the block with ``norm_first``, after the sum otherwise)."""
        for index, block in enumerate(blocks, start=1):
            norm = getattr(self, f"norm{index}")
            x = x + block(norm(x)) if self.norm_first else norm(x + block(x))
        return x


class TransformerEncoderLayer(_FeedForwardLayer):
    """``nn.TransformerEncoderLayer(d_model, nhead, dim_feedforward=2048, dropout=0.1,
    activation='relu', layer_norm_eps=1e-5, batch_first=False, norm_first=False,
    dtype=ms.float32)``: self-attention then ``dense2(activation(dense1(x)))``, each with
    a residual and a LayerNorm; called as ``layer(src, src_mask=None,
    src_key_padding_mask=None)``.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> layer = nn.TransformerEncoderLayer(4, 2, dim_feedforward=8)
        >>> layer(ms.ops.ones((3, 2, 4), ms.float32)).shape
        (3, 2, 4)
    """

    _attentions = ("self_attn",)

    def construct(self, src, src_mask=None, src_key_padding_mask=None):
        def attend(x):
            return self._attend(self.self_attn, x, x, src_mask, src_key_padding_mask,
                                self.dropout1)
        return self._blocks(src, [attend, lambda x: self._ff_block(x, self.dropout2)])


class TransformerDecoderLayer(_FeedForwardLayer):
    """``nn.TransformerDecoderLayer(d_model, nhead, dim_feedforward=2048, dropout=0.1,
    activation='relu', layer_norm_eps=1e-5, batch_first=False, norm_first=False,
    dtype=ms.float32)``: self-attention, attention over ``memory``, then the feed-forward
    block, each with a residual and a LayerNorm; called as ``layer(tgt, memory,
    tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
    memory_key_padding_mask=None)``.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> layer = nn.TransformerDecoderLayer(4, 2, dim_feedforward=8)
        >>> layer(ms.ops.ones((3, 2, 4), ms.float32), ms.ops.ones((5, 2, 4), ms.float32)).shape
        (3, 2, 4)
    """

    _attentions = ("self_attn", "multihead_attn")

    def construct(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                  memory_key_padding_mask=None):
        def attend_self(x):
            return self._attend(self.self_attn, x, x, tgt_mask, tgt_key_padding_mask,
                                self.dropout1)

        def attend_memory(x):
            return self._attend(self.multihead_attn, x, memory, memory_mask,
                                memory_key_padding_mask, self.dropout2)
        return self._blocks(tgt, [attend_self, attend_memory,
                                  lambda x: self._ff_block(x, self.dropout3)])


class _Stack(Cell):
    """``num_layers`` fresh copies of a layer (new weights, as MindSpore builds them from
    the layer's arguments) in ``layers``, then ``norm`` when given."""

    def __init__(self, layer: _FeedForwardLayer, num_layers: int, norm=None):
        super().__init__()
        fresh = type(layer)(*layer._arguments())
        self.layers = CellList([copy.deepcopy(fresh) for _ in range(num_layers)])
        self.num_layers, self.norm = num_layers, norm

    def _finish(self, output):
        return output if self.norm is None else self.norm(output)


class TransformerEncoder(_Stack):
    """``nn.TransformerEncoder(encoder_layer, num_layers, norm=None)``: ``num_layers``
    encoder layers built with ``encoder_layer``'s arguments (their own weights), then
    ``norm``; called as ``encoder(src, src_mask=None, src_key_padding_mask=None)``.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> layer = nn.TransformerEncoderLayer(4, 2, dim_feedforward=8)
        >>> encoder = nn.TransformerEncoder(layer, 2)
        >>> encoder(ms.ops.ones((3, 2, 4), ms.float32)).shape
        (3, 2, 4)
        >>> encoder.layers[1].dense1.weight.name
        'layers.1.dense1.weight'
    """

    def construct(self, src, src_mask=None, src_key_padding_mask=None):
        output = src
        for layer in self.layers:
            output = layer(output, src_mask=src_mask, src_key_padding_mask=src_key_padding_mask)
        return self._finish(output)


class TransformerDecoder(_Stack):
    """``nn.TransformerDecoder(decoder_layer, num_layers, norm=None)``: ``num_layers``
    decoder layers built with ``decoder_layer``'s arguments, then ``norm``; called as
    ``decoder(tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
    memory_key_padding_mask=None)``.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> decoder = nn.TransformerDecoder(nn.TransformerDecoderLayer(4, 2, 8), 2)
        >>> decoder(ms.ops.ones((3, 2, 4), ms.float32), ms.ops.ones((5, 2, 4), ms.float32)).shape
        (3, 2, 4)
    """

    def construct(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                  memory_key_padding_mask=None):
        output = tgt
        for layer in self.layers:
            output = layer(output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                           tgt_key_padding_mask=tgt_key_padding_mask,
                           memory_key_padding_mask=memory_key_padding_mask)
        return self._finish(output)


class Transformer(Cell):
    """``nn.Transformer(d_model=512, nhead=8, num_encoder_layers=6, num_decoder_layers=6,
    dim_feedforward=2048, dropout=0.1, activation='relu', custom_encoder=None,
    custom_decoder=None, layer_norm_eps=1e-5, batch_first=False, norm_first=False,
    dtype=ms.float32)``: an ``encoder`` and a ``decoder`` (each ending in a LayerNorm),
    every Parameter of rank > 1 Xavier-uniform; called as ``transformer(src, tgt,
    src_mask=None, tgt_mask=None, memory_mask=None, src_key_padding_mask=None,
    tgt_key_padding_mask=None, memory_key_padding_mask=None)``.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> transformer = nn.Transformer(4, 2, 1, 1, dim_feedforward=8)
        >>> src, tgt = ms.ops.ones((3, 2, 4), ms.float32), ms.ops.ones((5, 2, 4), ms.float32)
        >>> transformer(src, tgt).shape
        (5, 2, 4)
    """

    def __init__(self, d_model: int = 512, nhead: int = 8, num_encoder_layers: int = 6,
                 num_decoder_layers: int = 6, dim_feedforward: int = 2048, dropout: float = 0.1,
                 activation="relu", custom_encoder=None, custom_decoder=None,
                 layer_norm_eps: float = 1e-5, batch_first: bool = False,
                 norm_first: bool = False, dtype=float32):
        super().__init__()
        arguments = (d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps,
                     batch_first, norm_first, dtype)
        self.encoder = custom_encoder if custom_encoder is not None else TransformerEncoder(
            TransformerEncoderLayer(*arguments), num_encoder_layers,
            LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype))
        self.decoder = custom_decoder if custom_decoder is not None else TransformerDecoder(
            TransformerDecoderLayer(*arguments), num_decoder_layers,
            LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype))
        for parameter in self.get_parameters():
            if parameter.ndim > 1:
                parameter.set_data(initializer("xavier_uniform", parameter.shape,
                                               parameter.dtype))
        self.d_model, self.nhead, self.batch_first = d_model, nhead, batch_first

    def construct(self, src, tgt, src_mask=None, tgt_mask=None, memory_mask=None,
                  src_key_padding_mask=None, tgt_key_padding_mask=None,
                  memory_key_padding_mask=None):
        if src.shape[-1] != self.d_model or tgt.shape[-1] != self.d_model:
            raise ValueError("The number of features for 'src' and 'tgt' must be equal to "
                             "`d_model`.")
        memory = self.encoder(src, src_mask=src_mask, src_key_padding_mask=src_key_padding_mask)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                            tgt_key_padding_mask=tgt_key_padding_mask,
                            memory_key_padding_mask=memory_key_padding_mask)
