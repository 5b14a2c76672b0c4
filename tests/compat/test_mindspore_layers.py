"""MindSpore layers and initializers beyond the recorded cases
(tests/compat/recorded_cases/mindspore_layers_cases.py): seeding, Initializer objects as
``weight_init``, the exported names, and what errors leave untouched."""

from __future__ import annotations

import numpy as np
import pytest

import unigrad.compat.mindspore as ms
from unigrad.compat.mindspore import _nn_layers, nn
from unigrad.compat.mindspore.common import initializer as init

# every layer name this slice adds to ``mindspore.nn`` (all exist in MindSpore 2.10)
_LAYER_NAMES = {"Conv1d", "Conv2d", "Conv3d", "Conv2dTranspose", "MaxPool1d", "MaxPool2d",
                "AvgPool1d", "AvgPool2d", "BatchNorm1d", "BatchNorm2d", "LayerNorm", "GroupNorm",
                "Embedding", "RNN", "GRU", "LSTM", "ELU", "CELU", "HSwish", "HSigmoid", "SiLU",
                "ReLU6", "Mish", "Softsign", "LogSigmoid", "Tanhshrink", "Hardtanh",
                "SoftShrink", "HShrink", "Softmin", "GLU", "PReLU", "BCELoss", "NLLLoss",
                "KLDivLoss", "HuberLoss", "WithEvalCell", "AdaptiveAvgPool1d", "AdaptiveAvgPool2d",
                "AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "RNNCell", "GRUCell", "LSTMCell",
                "SeLU", "MAELoss", "RMSELoss", "BatchNorm3d", "Dropout1d", "Dropout2d",
                "Dropout3d", "ZeroPad2d", "ConstantPad1d", "ConstantPad2d", "ConstantPad3d",
                "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d", "ReplicationPad1d",
                "ReplicationPad2d", "ReplicationPad3d", "PixelShuffle", "PixelUnshuffle",
                "Unflatten", "Upsample", "Conv1dTranspose", "MarginRankingLoss",
                "CosineEmbeddingLoss", "HingeEmbeddingLoss", "MultiLabelSoftMarginLoss",
                "PoissonNLLLoss", "GaussianNLLLoss", "Threshold", "Softmax2d", "ChannelShuffle",
                "LPPool1d", "LPPool2d"}


def test_layer_names_are_exported_by_nn():
    assert _LAYER_NAMES <= set(_nn_layers.__all__)
    assert all(getattr(nn, name) is getattr(_nn_layers, name) for name in _nn_layers.__all__)
    assert set(_nn_layers.__all__) <= set(nn.__all__)


def test_set_seed_repeats_initializers_and_default_weights():
    ms.set_seed(5)
    first = [init.initializer("normal", (4, 3)).asnumpy(), nn.Conv2d(2, 3, 3).weight.asnumpy(),
             nn.LSTM(2, 3).weight_ih_l0.asnumpy()]
    ms.set_seed(5)
    second = [init.initializer("normal", (4, 3)).asnumpy(), nn.Conv2d(2, 3, 3).weight.asnumpy(),
              nn.LSTM(2, 3).weight_ih_l0.asnumpy()]
    for a, b in zip(first, second):
        np.testing.assert_array_equal(a, b)


def test_initializer_objects_and_names_as_weight_init():
    conv = nn.Conv2d(20, 30, 3, weight_init=init.Normal(sigma=0.5), has_bias=True,
                     bias_init=init.Constant(0.25))
    weight = conv.weight.asnumpy()
    assert weight.shape == (30, 20, 3, 3) and abs(weight.std() - 0.5) < 0.03
    np.testing.assert_array_equal(conv.bias.asnumpy(), np.full(30, 0.25, np.float32))
    table = nn.Embedding(200, 30, embedding_table="xavier_uniform").embedding_table.asnumpy()
    assert np.abs(table).max() <= (6 / 230) ** 0.5


def test_custom_initializer_subclass_and_abstract_base():
    class Steps(init.Initializer):
        def _initialize(self, arr):
            arr[...] = np.arange(arr.size).reshape(arr.shape)

    np.testing.assert_array_equal(init.initializer(Steps(), (2, 2)).asnumpy(),
                                  [[0.0, 1.0], [2.0, 3.0]])
    with pytest.raises(NotImplementedError):
        init.Initializer()(np.zeros(2))


def test_initializer_without_shape_raises_like_mindspore():
    with pytest.raises(AttributeError, match="'Normal' object has no attribute 'shape'"):
        init.initializer("normal")
    with pytest.raises(ValueError, match="'shape' \\[None\\]"):
        init.initializer(ms.Tensor(np.ones(2, np.float32)))


def test_tensor_weight_init_is_copied_not_aliased():
    kernel = ms.Tensor(np.ones((2, 1, 3), np.float32))
    conv1d = nn.Conv1d(1, 2, 3, weight_init=kernel)
    transpose_kernel = ms.Tensor(np.ones((1, 2, 2, 2), np.float32))
    transpose = nn.Conv2dTranspose(1, 2, 2, weight_init=transpose_kernel)
    conv1d.weight.set_data(ms.Tensor(np.zeros((2, 1, 1, 3), np.float32)))
    transpose.weight.set_data(ms.Tensor(np.zeros((1, 2, 2, 2), np.float32)))
    np.testing.assert_array_equal(kernel.asnumpy(), np.ones((2, 1, 3), np.float32))
    np.testing.assert_array_equal(transpose_kernel.asnumpy(), np.ones((1, 2, 2, 2)))


def test_batchnorm_eval_leaves_moving_statistics_and_errors_change_nothing():
    bn = nn.BatchNorm2d(2, moving_mean_init=1.0).set_train(False)
    x = ms.Tensor(np.arange(16, dtype=np.float32).reshape(2, 2, 2, 2))
    bn(x)
    np.testing.assert_array_equal(bn.moving_mean.asnumpy(), [1.0, 1.0])
    bn.set_train(True)
    with pytest.raises(ValueError, match="must have 4 dims"):
        bn(ms.Tensor(np.ones((2, 2), np.float32)))
    np.testing.assert_array_equal(bn.moving_mean.asnumpy(), [1.0, 1.0])


def test_recurrent_arguments_checked():
    with pytest.raises(TypeError, match="'dropout' must be float"):
        nn.LSTM(2, 3, dropout=0)
    with pytest.raises(ValueError, match="range \\[0, 1\\)"):
        nn.GRU(2, 3, dropout=1.0)
    with pytest.raises(ValueError, match="'nonlinearity' must be in"):
        nn.RNN(2, 3, nonlinearity="sigmoid")
    with pytest.raises(ValueError, match="'seq_length' is not supported"):
        nn.GRU(2, 3)(ms.Tensor(np.ones((4, 1, 2), np.float32)),
                     seq_length=ms.Tensor(np.array([3], np.int32)))


def test_layers_reject_unsupported_layouts():
    with pytest.raises(ValueError, match="'data_format' must be 'NCHW'"):
        nn.Conv2d(2, 3, 3, data_format="NHWC")
    with pytest.raises(ValueError, match="'data_format' must be 'NCHW'"):
        nn.BatchNorm2d(2, data_format="NHWC")


@pytest.mark.parametrize("layer, shape", [(nn.Dropout1d, (4, 6, 5)), (nn.Dropout2d, (4, 6, 3, 3)),
                                          (nn.Dropout3d, (4, 6, 2, 2, 2))])
def test_channel_dropout_in_training_zeroes_whole_channels(layer, shape):
    ms.set_seed(1)
    output = layer(0.5).set_train(True)(ms.ops.ones(shape, ms.float32)).asnumpy()
    per_channel = output.reshape(shape[0] * shape[1], -1)
    assert set(np.unique(per_channel)) == {0.0, 2.0}
    assert (per_channel.min(axis=1) == per_channel.max(axis=1)).all()
