"""MultiheadAttention, the Transformer layers and stacks, and the attention functionals
against PyTorch: outputs, input and parameter gradients (float64, parameters copied from torch
by state_dict key)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch
import torch.nn.functional as torch_F

import unigrad as ug
import unigrad.nn.functional as F

RTOL, ATOL = 1e-9, 1e-11
E, HEADS = 4, 2


def _copy(theirs, ours):
    assert list(ours.state_dict()) == list(theirs.state_dict())
    ours.load_state_dict({key: value.detach().numpy() for key, value in
                          theirs.state_dict().items()})
    ours.train(theirs.training)
    return theirs, ours


def _twin(name: str, *args, **kwargs):
    torch.manual_seed(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = getattr(torch.nn, name)(*args, dtype=torch.float64, **kwargs)
        ours = getattr(ug.nn, name)(*args, dtype=ug.float64, **kwargs)
    return _copy(theirs, ours)


def _leaf(array):
    return torch.tensor(array, requires_grad=True), ug.tensor(array, requires_grad=True)


def _mask(array):
    return torch.tensor(array), ug.tensor(array)


def _check(torch_out, ug_out, torch_leaves, ug_leaves, theirs=None, ours=None, seed=1):
    """Equal outputs, and equal gradients of a random projection of them."""
    torch_out = [o for o in (torch_out if isinstance(torch_out, tuple) else (torch_out,))
                 if o is not None]
    ug_out = [o for o in (ug_out if isinstance(ug_out, tuple) else (ug_out,)) if o is not None]
    assert len(torch_out) == len(ug_out)
    rng = np.random.default_rng(seed)
    torch_loss = ug_loss = 0
    for expected, actual in zip(torch_out, ug_out):
        assert tuple(actual.shape) == tuple(expected.shape)
        np.testing.assert_allclose(actual.detach().numpy(), expected.detach().numpy(),
                                   rtol=RTOL, atol=ATOL)
        weight = rng.standard_normal(tuple(expected.shape))
        torch_loss = torch_loss + (expected * torch.tensor(weight)).sum()
        ug_loss = ug_loss + (actual * ug.tensor(weight)).sum()
    torch_loss.backward()
    ug_loss.backward()
    for expected, actual in zip(torch_leaves, ug_leaves):
        np.testing.assert_allclose(actual.grad.numpy(), expected.grad.numpy(), rtol=RTOL,
                                   atol=ATOL)
    if theirs is not None:
        grads = {key: p.grad for key, p in theirs.named_parameters()}
        for key, parameter in ours.named_parameters():
            assert parameter.grad is not None, key
            np.testing.assert_allclose(parameter.grad.numpy(), grads[key].numpy(), rtol=RTOL,
                                       atol=ATOL, err_msg=key)


# ----------------------------------------------------------------------------- functionals

@pytest.mark.parametrize("mask_kind", [None, "bool", "float", "causal", "blocked_row"])
def test_scaled_dot_product_attention(mask_kind):
    rng = np.random.default_rng(0)
    leaves = [_leaf(rng.standard_normal(shape)) for shape in
              ((2, 3, 4, 5), (2, 3, 6, 5), (2, 3, 6, 3))]
    kwargs_torch, kwargs_ug = {}, {}
    if mask_kind == "bool" or mask_kind == "blocked_row":
        mask = rng.random((4, 6)) > 0.3
        mask[:, 0] = mask_kind == "bool"
        if mask_kind == "blocked_row":
            mask[1] = False
        kwargs_torch["attn_mask"], kwargs_ug["attn_mask"] = _mask(mask)
    elif mask_kind == "float":
        kwargs_torch["attn_mask"], kwargs_ug["attn_mask"] = _leaf(rng.standard_normal((3, 4, 6)))
        leaves.append((kwargs_torch["attn_mask"], kwargs_ug["attn_mask"]))
    elif mask_kind == "causal":
        kwargs_torch["is_causal"] = kwargs_ug["is_causal"] = True
    expected = torch_F.scaled_dot_product_attention(*[p[0] for p in leaves[:3]], **kwargs_torch,
                                                    scale=0.7)
    actual = F.scaled_dot_product_attention(*[p[1] for p in leaves[:3]], **kwargs_ug, scale=0.7)
    _check(expected, actual, [p[0] for p in leaves], [p[1] for p in leaves])


def test_scaled_dot_product_attention_grouped_query_heads():
    rng = np.random.default_rng(1)
    leaves = [_leaf(rng.standard_normal(shape)) for shape in
              ((1, 4, 3, 2), (1, 2, 5, 2), (1, 2, 5, 3))]
    expected = torch_F.scaled_dot_product_attention(*[p[0] for p in leaves], enable_gqa=True)
    actual = F.scaled_dot_product_attention(*[p[1] for p in leaves], enable_gqa=True)
    _check(expected, actual, [p[0] for p in leaves], [p[1] for p in leaves])


def test_scaled_dot_product_attention_dropout_keeps_or_scales_weights():
    ug.manual_seed(0)
    query = ug.zeros(1, 4, 2, dtype=ug.float64)
    value = ug.tensor(np.eye(4)[None])
    output = F.scaled_dot_product_attention(query, query, value, dropout_p=0.5).numpy()
    assert set(np.round(np.unique(output), 12)) <= {0.0, 0.5}
    assert 0 < np.count_nonzero(output) < output.size


def test_scaled_dot_product_attention_errors():
    x = ug.ones(2, 3)
    with pytest.raises(RuntimeError, match="Explicit attn_mask should not be set when "
                                           "is_causal=True"):
        F.scaled_dot_product_attention(x, x, x, attn_mask=ug.ones(2, 2), is_causal=True)
    with pytest.raises(TypeError):
        F.scaled_dot_product_attention(x, x, x, None, 0.0, False, 0.5)


# ----------------------------------------------------------------------------- MultiheadAttention

MHA_CONFIGS = [
    {},
    {"batch_first": True},
    {"kdim": 3, "vdim": 5},
    {"add_bias_kv": True, "add_zero_attn": True},
    {"bias": False, "batch_first": True},
]


@pytest.mark.parametrize("kwargs", MHA_CONFIGS)
@pytest.mark.parametrize("need_weights,average", [(True, True), (True, False), (False, True)])
def test_multihead_attention(kwargs, need_weights, average):
    theirs, ours = _twin("MultiheadAttention", E, HEADS, **kwargs)
    rng = np.random.default_rng(2)
    batch_first = kwargs.get("batch_first", False)
    shapes = [(3, 2, E), (5, 2, kwargs.get("kdim", E)), (5, 2, kwargs.get("vdim", E))]
    if batch_first:
        shapes = [(s[1], s[0], s[2]) for s in shapes]
    leaves = [_leaf(rng.standard_normal(shape)) for shape in shapes]
    options = {"need_weights": need_weights, "average_attn_weights": average}
    expected = theirs(*[p[0] for p in leaves], **options)
    actual = ours(*[p[1] for p in leaves], **options)
    assert (actual[1] is None) == (not need_weights)
    _check(expected, actual, [p[0] for p in leaves], [p[1] for p in leaves], theirs, ours)


@pytest.mark.parametrize("need_weights", [True, False])
@pytest.mark.parametrize("masks", ["bool", "float", "padding_only", "attn_3d", "causal"])
def test_multihead_attention_masks(masks, need_weights):
    theirs, ours = _twin("MultiheadAttention", E, HEADS, add_bias_kv=masks == "bool")
    rng = np.random.default_rng(3)
    leaves = [_leaf(rng.standard_normal((3, 2, E))) for _ in range(3)]
    padding = np.zeros((2, 3), dtype=bool)
    padding[1, 2] = True
    attention = np.triu(np.ones((3, 3), dtype=bool), 1)
    options_torch, options_ug = {"need_weights": need_weights}, {"need_weights": need_weights}
    if masks in ("bool", "padding_only"):
        options_torch["key_padding_mask"], options_ug["key_padding_mask"] = _mask(padding)
    if masks == "bool":
        options_torch["attn_mask"], options_ug["attn_mask"] = _mask(attention)
    if masks == "float":
        options_torch["attn_mask"], options_ug["attn_mask"] = _mask(
            np.where(attention, -1e9, 0.0) + rng.standard_normal((3, 3)))
        options_torch["key_padding_mask"], options_ug["key_padding_mask"] = _mask(
            np.where(padding, -np.inf, 0.0))
    if masks == "attn_3d":
        options_torch["attn_mask"], options_ug["attn_mask"] = _mask(
            rng.random((2 * HEADS, 3, 3)) > 0.8)
    if masks == "causal":
        causal = ug.nn.Transformer.generate_square_subsequent_mask(3, dtype=ug.float64)
        options_torch["attn_mask"], options_ug["attn_mask"] = torch.tensor(causal.numpy()), causal
        options_torch["is_causal"] = options_ug["is_causal"] = True
    expected = theirs(*[p[0] for p in leaves], **options_torch)
    actual = ours(*[p[1] for p in leaves], **options_ug)
    _check(expected, actual, [p[0] for p in leaves], [p[1] for p in leaves], theirs, ours)


def test_multihead_attention_unbatched_with_padding_mask():
    theirs, ours = _twin("MultiheadAttention", E, HEADS, kdim=3, vdim=3)
    rng = np.random.default_rng(4)
    leaves = [_leaf(rng.standard_normal(shape)) for shape in ((2, E), (5, 3), (5, 3))]
    padding = np.array([False, True, False, False, True])
    expected = theirs(*[p[0] for p in leaves], key_padding_mask=torch.tensor(padding),
                      average_attn_weights=False)
    actual = ours(*[p[1] for p in leaves], key_padding_mask=ug.tensor(padding),
                  average_attn_weights=False)
    _check(expected, actual, [p[0] for p in leaves], [p[1] for p in leaves], theirs, ours)


def test_multi_head_attention_forward_with_static_keys_and_values():
    rng = np.random.default_rng(5)
    arrays = [rng.standard_normal(s) for s in
              ((3, 2, E), (5, 2, E), (5, 2, E), (3 * E, E), (3 * E,), (E, E), (E,),
               (2 * HEADS, 6, E // HEADS), (2 * HEADS, 6, E // HEADS))]
    pairs = [_leaf(a) for a in arrays]
    t, u = [p[0] for p in pairs], [p[1] for p in pairs]
    expected = torch_F.multi_head_attention_forward(
        t[0], t[1], t[2], E, HEADS, t[3], t[4], None, None, False, 0.0, t[5], t[6],
        static_k=t[7], static_v=t[8])
    actual = F.multi_head_attention_forward(
        u[0], u[1], u[2], E, HEADS, u[3], u[4], None, None, False, 0.0, u[5], u[6],
        static_k=u[7], static_v=u[8])
    _check(expected, actual, [t[0], *t[3:]], [u[0], *u[3:]])


def test_multihead_attention_repr_state_dict_and_init():
    theirs = torch.nn.MultiheadAttention(E, HEADS, add_bias_kv=True, kdim=3)
    ours = ug.nn.MultiheadAttention(E, HEADS, add_bias_kv=True, kdim=3)
    assert repr(ours) == repr(theirs)
    assert [(k, tuple(v.shape)) for k, v in ours.state_dict().items()] == [
        (k, tuple(v.shape)) for k, v in theirs.state_dict().items()]
    assert isinstance(ours.out_proj, ug.nn.Linear)
    assert not ours.in_proj_bias.detach().numpy().any()
    assert not ours.out_proj.bias.detach().numpy().any()
    bound = np.sqrt(6 / (E + E))
    assert np.abs(ours.q_proj_weight.detach().numpy()).max() <= bound


def test_multihead_attention_errors():
    with pytest.raises(ValueError, match="embed_dim and num_heads must be greater than 0"):
        ug.nn.MultiheadAttention(0, 2)
    with pytest.raises(AssertionError, match="embed_dim must be divisible by num_heads"):
        ug.nn.MultiheadAttention(5, 2)
    attention = ug.nn.MultiheadAttention(E, HEADS)
    x = ug.ones(3, 2, E)
    with pytest.raises(RuntimeError, match="Need attn_mask if specifying the is_causal hint"):
        attention(x, x, x, is_causal=True)
    with pytest.raises(RuntimeError, match=r"The shape of the 2D attn_mask is \(2, 3\), but "
                                           r"should be \(3, 3\)"):
        attention(x, x, x, attn_mask=ug.zeros(2, 3))
    with pytest.raises(AssertionError, match="was expecting embedding dimension of 4, but got 3"):
        attention(ug.ones(3, 2, 3), x, x)
    with pytest.raises(AssertionError, match="only bool and floating types of attn_mask"):
        attention(x, x, x, attn_mask=ug.zeros(3, 3, dtype=ug.int64))
    with pytest.warns(UserWarning, match="mismatched key_padding_mask and attn_mask"):
        attention(x, x, x, key_padding_mask=ug.zeros(2, 3, dtype=ug.bool),
                  attn_mask=ug.zeros(3, 3))


# ----------------------------------------------------------------------------- layers

LAYER_CONFIGS = [
    {},
    {"norm_first": True, "batch_first": True},
    {"activation": "gelu", "bias": False},
    {"layer_norm_eps": 1e-3, "norm_first": True},
]


def _layer_pair(name: str, train: bool, **kwargs):
    theirs, ours = _twin(name, E, HEADS, dim_feedforward=6, dropout=0.0, **kwargs)
    theirs.train(train)
    ours.train(train)
    return theirs, ours


def _sequence(batch_first: bool, length: int, rng):
    return _leaf(rng.standard_normal((2, length, E) if batch_first else (length, 2, E)))


@pytest.mark.parametrize("train", [False, True])
@pytest.mark.parametrize("kwargs", LAYER_CONFIGS)
def test_encoder_layer(kwargs, train):
    theirs, ours = _layer_pair("TransformerEncoderLayer", train, **kwargs)
    rng = np.random.default_rng(6)
    torch_x, ug_x = _sequence(kwargs.get("batch_first", False), 5, rng)
    padding = np.zeros((2, 5), dtype=bool)
    padding[0, 3:] = True
    causal = np.triu(np.ones((5, 5), dtype=bool), 1)
    expected = theirs(torch_x, src_mask=torch.tensor(causal),
                      src_key_padding_mask=torch.tensor(padding))
    actual = ours(ug_x, src_mask=ug.tensor(causal), src_key_padding_mask=ug.tensor(padding))
    _check(expected, actual, [torch_x], [ug_x], theirs, ours)


@pytest.mark.parametrize("train", [False, True])
@pytest.mark.parametrize("kwargs", LAYER_CONFIGS)
def test_decoder_layer(kwargs, train):
    theirs, ours = _layer_pair("TransformerDecoderLayer", train, **kwargs)
    rng = np.random.default_rng(7)
    batch_first = kwargs.get("batch_first", False)
    torch_tgt, ug_tgt = _sequence(batch_first, 4, rng)
    torch_memory, ug_memory = _sequence(batch_first, 6, rng)
    causal = ug.nn.Transformer.generate_square_subsequent_mask(4, dtype=ug.float64)
    memory_padding = np.zeros((2, 6), dtype=bool)
    memory_padding[1, 4:] = True
    expected = theirs(torch_tgt, torch_memory, tgt_mask=torch.tensor(causal.numpy()),
                      tgt_is_causal=True, memory_key_padding_mask=torch.tensor(memory_padding))
    actual = ours(ug_tgt, ug_memory, tgt_mask=causal, tgt_is_causal=True,
                  memory_key_padding_mask=ug.tensor(memory_padding))
    _check(expected, actual, [torch_tgt, torch_memory], [ug_tgt, ug_memory], theirs, ours)


def test_encoder_layer_with_module_activation_registers_it_as_a_child():
    torch.manual_seed(0)
    theirs = torch.nn.TransformerEncoderLayer(E, HEADS, 6, 0.0, torch.nn.GELU(),
                                              dtype=torch.float64)
    ours = ug.nn.TransformerEncoderLayer(E, HEADS, 6, 0.0, ug.nn.GELU(), dtype=ug.float64)
    _copy(theirs, ours)
    assert repr(ours) == repr(theirs)
    torch_x, ug_x = _sequence(False, 3, np.random.default_rng(8))
    _check(theirs(torch_x), ours(ug_x), [torch_x], [ug_x], theirs, ours)


@pytest.mark.parametrize("train", [False, True])
def test_encoder_and_decoder_stacks(train):
    torch.manual_seed(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = torch.nn.TransformerEncoder(
            torch.nn.TransformerEncoderLayer(E, HEADS, 6, 0.0, dtype=torch.float64), 2,
            torch.nn.LayerNorm(E, dtype=torch.float64))
        ours = ug.nn.TransformerEncoder(
            ug.nn.TransformerEncoderLayer(E, HEADS, 6, 0.0, dtype=ug.float64), 2,
            ug.nn.LayerNorm(E, dtype=ug.float64))
    _copy(theirs.train(train), ours)
    rng = np.random.default_rng(9)
    torch_x, ug_x = _sequence(False, 5, rng)
    mask = ug.nn.Transformer.generate_square_subsequent_mask(5, dtype=ug.float64)
    _check(theirs(torch_x, mask=torch.tensor(mask.numpy())), ours(ug_x, mask=mask), [torch_x],
           [ug_x], theirs, ours)
    decoder_theirs = torch.nn.TransformerDecoder(
        torch.nn.TransformerDecoderLayer(E, HEADS, 6, 0.0, dtype=torch.float64), 2)
    decoder_ours = ug.nn.TransformerDecoder(
        ug.nn.TransformerDecoderLayer(E, HEADS, 6, 0.0, dtype=ug.float64), 2)
    _copy(decoder_theirs.train(train), decoder_ours)
    torch_tgt, ug_tgt = _sequence(False, 3, rng)
    torch_memory, ug_memory = _sequence(False, 5, rng)
    _check(decoder_theirs(torch_tgt, torch_memory), decoder_ours(ug_tgt, ug_memory),
           [torch_tgt, torch_memory], [ug_tgt, ug_memory], decoder_theirs, decoder_ours)


@pytest.mark.parametrize("batch_first", [False, True])
def test_transformer(batch_first):
    theirs, ours = _twin("Transformer", E, HEADS, 1, 2, 6, 0.0, batch_first=batch_first)
    rng = np.random.default_rng(10)
    torch_src, ug_src = _sequence(batch_first, 5, rng)
    torch_tgt, ug_tgt = _sequence(batch_first, 3, rng)
    tgt_mask = ug.nn.Transformer.generate_square_subsequent_mask(3, dtype=ug.float64)
    padding = np.zeros((2, 5), dtype=bool)
    padding[1, 3:] = True
    expected = theirs(torch_src, torch_tgt, tgt_mask=torch.tensor(tgt_mask.numpy()),
                      src_key_padding_mask=torch.tensor(padding),
                      memory_key_padding_mask=torch.tensor(padding))
    actual = ours(ug_src, ug_tgt, tgt_mask=tgt_mask, src_key_padding_mask=ug.tensor(padding),
                  memory_key_padding_mask=ug.tensor(padding))
    _check(expected, actual, [torch_src, torch_tgt], [ug_src, ug_tgt], theirs, ours)


def test_transformer_structure_init_and_errors():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = torch.nn.Transformer(E, HEADS, 1, 1, 6)
        ours = ug.nn.Transformer(E, HEADS, 1, 1, 6)
    assert repr(ours) == repr(theirs)
    assert list(ours.state_dict()) == list(theirs.state_dict())
    weight = ours.encoder.layers[0].linear1.weight.detach().numpy()
    assert np.abs(weight).max() <= np.sqrt(6 / (E + 6))
    np.testing.assert_array_equal(
        ug.nn.Transformer.generate_square_subsequent_mask(4).numpy(),
        torch.nn.Transformer.generate_square_subsequent_mask(4).numpy())
    assert ug.nn.Transformer.generate_square_subsequent_mask(2).dtype == ug.float32
    with pytest.raises(RuntimeError, match="the batch number of src and tgt must be equal"):
        ours(ug.ones(5, 2, E), ug.ones(3, 1, E))
    with pytest.raises(RuntimeError, match="the feature number of src and tgt must be equal"):
        ours(ug.ones(5, 2, E), ug.ones(3, 2, E + 1))
    with pytest.raises(RuntimeError, match="activation should be relu/gelu, not tanh"):
        ug.nn.TransformerEncoderLayer(E, HEADS, activation="tanh")


def test_encoder_nested_tensor_warning_like_torch():
    layer = ug.nn.TransformerEncoderLayer(E, HEADS, 6)
    with pytest.warns(UserWarning, match="self_attn.batch_first was not True"):
        encoder = ug.nn.TransformerEncoder(layer, 2)
    assert encoder.use_nested_tensor is False and encoder.enable_nested_tensor is True
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        batch_first = ug.nn.TransformerEncoder(
            ug.nn.TransformerEncoderLayer(E, HEADS, 6, batch_first=True), 1)
    assert batch_first.use_nested_tensor is True
    assert encoder.layers[0] is not encoder.layers[1]
    np.testing.assert_array_equal(encoder.layers[0].linear1.weight.detach().numpy(),
                                  encoder.layers[1].linear1.weight.detach().numpy())


def test_dropout_in_training_changes_the_encoder_layer_output():
    ug.manual_seed(0)
    layer = ug.nn.TransformerEncoderLayer(E, HEADS, 6, dropout=0.5)
    x = ug.tensor(np.random.default_rng(11).standard_normal((3, 2, E)).astype(np.float32))
    trained = layer(x).detach().numpy()
    layer.eval()
    evaluated = layer(x).detach().numpy()
    np.testing.assert_array_equal(layer(x).detach().numpy(), evaluated)
    assert not np.allclose(trained, evaluated)


@pytest.mark.parametrize("left_aligned", [True, False])
def test_encoder_inference_zeroes_padded_positions_like_torch_nested_tensors(left_aligned):
    torch.manual_seed(0)
    theirs = torch.nn.TransformerEncoder(
        torch.nn.TransformerEncoderLayer(E, HEADS, 6, 0.0, batch_first=True,
                                         dtype=torch.float64), 2,
        torch.nn.LayerNorm(E, dtype=torch.float64)).eval()
    ours = ug.nn.TransformerEncoder(
        ug.nn.TransformerEncoderLayer(E, HEADS, 6, 0.0, batch_first=True, dtype=ug.float64), 2,
        ug.nn.LayerNorm(E, dtype=ug.float64))
    with torch.no_grad():
        theirs.norm.bias.fill_(0.5)
    _copy(theirs, ours)
    x = np.random.default_rng(12).standard_normal((2, 5, E))
    padding = np.zeros((2, 5), dtype=bool)
    padding[1, 3:] = True
    if not left_aligned:
        padding[0, 1] = True
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with torch.no_grad():
            expected = theirs(torch.tensor(x), src_key_padding_mask=torch.tensor(padding))
    with ug.no_grad():
        actual = ours(ug.tensor(x), src_key_padding_mask=ug.tensor(padding))
    np.testing.assert_allclose(actual.numpy(), expected.numpy(), rtol=1e-9, atol=1e-11)
    assert np.allclose(actual.numpy()[1, 3:], 0.5) == left_aligned
    with_grad = ours(ug.tensor(x), src_key_padding_mask=ug.tensor(padding))
    assert not np.allclose(with_grad.detach().numpy()[1, 3:], 0.5)


def test_key_padding_mask_shape_error_like_torch():
    attention = ug.nn.MultiheadAttention(E, HEADS)
    x = ug.ones(3, 2, E)
    with pytest.raises(AssertionError, match=r"Expected key_padded_mask.shape\[1\] to be 3, but "
                                             r"got 4"):
        attention(x, x, x, key_padding_mask=ug.zeros(2, 4, dtype=ug.bool))
