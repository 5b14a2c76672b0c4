"""MindSpore checkpoints, ``mindspore.train.Model`` and callbacks on unigrad.

Values compared with MindSpore's come from the recorded cases
(``recorded_cases/mindspore_training_cases.py``); here: the checkpoint files of
``data/mindspore`` (one written by MindSpore 2.10, one by unigrad, see
``make_checkpoints.py`` there), the protobuf wire format's edge cases, and that
failing loads and saves change nothing.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

import unigrad.compat.mindspore as ms
from unigrad.compat.mindspore import _checkpoint, nn
from unigrad.compat.mindspore.train import (
    CheckpointConfig,
    LossMonitor,
    Model,
    ModelCheckpoint,
    RunContext,
)

FIXTURES = Path(__file__).resolve().parent / "data" / "mindspore"
WRITTEN_BY_MINDSPORE = FIXTURES / "written_by_mindspore.ckpt"


def _network():
    return nn.SequentialCell([nn.Dense(3, 2), nn.ReLU(), nn.Dense(2, 1)])


def test_mindspore_file_loads_into_a_network():
    network = _network()
    not_loaded = ms.load_param_into_net(network, ms.load_checkpoint(str(WRITTEN_BY_MINDSPORE)))
    assert not_loaded == ([], ["half", "counts", "epoch_num", "lr", "note"])
    # make_checkpoints.py: parameter i holds linspace(-1, 1, size) + i
    np.testing.assert_array_equal(network[0].weight.asnumpy(),
                                  np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3))
    np.testing.assert_array_equal(network[2].bias.asnumpy(), [2.0])
    output = network(ms.Tensor(np.array([[1.0, 0.5, -1.0]], np.float32)))
    np.testing.assert_allclose(output.asnumpy(), [[6.5]], rtol=1e-6)  # MindSpore 2.10: 6.5


def test_mindspore_file_keeps_dtypes_and_append_entries():
    loaded = ms.load_checkpoint(str(WRITTEN_BY_MINDSPORE))
    assert str(loaded["half"].dtype) == "Float16"
    np.testing.assert_array_equal(loaded["counts"].asnumpy(),
                                  np.array([[1, -2], [3, 40000]], np.int32))
    assert loaded["epoch_num"].asnumpy().dtype == np.int64
    assert loaded["note"] == "fixture"


def test_saving_the_fixture_content_writes_mindspore_bytes(tmp_path):
    spec_path = FIXTURES / "make_checkpoints.py"
    namespace: dict = {}
    exec(compile(spec_path.read_text(), str(spec_path), "exec"), namespace)
    namespace["write"](ms, tmp_path / "again.ckpt")
    assert (tmp_path / "again.ckpt").read_bytes() == WRITTEN_BY_MINDSPORE.read_bytes()


@pytest.mark.parametrize("value", [0, 1, 127, 128, 300, 2**35, -1, -300])
def test_varints_round_trip(value):
    encoded = _checkpoint._encode_varint(value)
    decoded, end = _checkpoint._decode_varint(encoded, 0)
    assert end == len(encoded)
    assert decoded == value % 2**64
    assert len(_checkpoint._encode_varint(-1)) == 10


def _saved_dense(tmp_path, name: str = "dense.ckpt") -> str:
    path = str(tmp_path / name)
    ms.save_checkpoint(nn.Dense(3, 2, weight_init="ones", bias_init="ones"), path)
    return path


@pytest.mark.parametrize("damage", [lambda data: data[:-1], lambda data: data[:7],
                                    lambda data: b"\x0a\xff\xff\xff\xff\x0f" + data,
                                    lambda data: data.replace(b"Float32", b"Float99")])
def test_damaged_file_raises_and_leaves_the_network_unchanged(tmp_path, damage):
    data = Path(_saved_dense(tmp_path)).read_bytes()
    damaged = tmp_path / "damaged.ckpt"
    damaged.write_bytes(damage(data))
    network = nn.Dense(3, 2, weight_init="zeros", bias_init="zeros")
    with pytest.raises(ValueError, match="may be corrupted"):
        ms.load_checkpoint(str(damaged), net=network)
    assert not network.weight.asnumpy().any() and not network.bias.asnumpy().any()


def test_wrong_shape_changes_no_parameter(tmp_path):
    loaded = ms.load_checkpoint(_saved_dense(tmp_path))
    loaded["bias"] = ms.Parameter(ms.Tensor(np.ones(5, np.float32)), name="bias")
    network = nn.Dense(3, 2, weight_init="zeros", bias_init="zeros")
    with pytest.raises(RuntimeError, match="same shape as bias"):
        ms.load_param_into_net(network, loaded)
    assert not network.weight.asnumpy().any()


def test_failed_save_leaves_the_existing_file(tmp_path):
    path = _saved_dense(tmp_path)
    before = Path(path).read_bytes()
    with pytest.raises(TypeError, match="'save_checkpoint'"):
        ms.save_checkpoint([{"name": "x", "data": object()}], path)
    assert Path(path).read_bytes() == before
    assert os.stat(path).st_mode & 0o777 == 0o400


def test_unsupported_options_say_so(tmp_path):
    with pytest.raises(NotImplementedError, match="enc_key"):
        ms.save_checkpoint(nn.Dense(1, 1), str(tmp_path / "x.ckpt"), enc_key=b"0" * 16)


def _data():
    x = np.arange(8, dtype=np.float32).reshape(4, 2) / 8
    return ms.dataset.NumpySlicesDataset((x, x.sum(1, keepdims=True)), column_names=["x", "y"],
                                         shuffle=False).batch(2)


def test_loss_monitor_prints_every_n_steps(capsys):
    network = nn.Dense(2, 1, weight_init="zeros", bias_init="zeros")
    model = Model(network, nn.MSELoss(), nn.SGD(network.trainable_params(), 0.1))
    model.train(2, _data(), callbacks=LossMonitor(3))
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(",")[0] for line in lines] == ["epoch: 2 step: 1"]


def test_loss_monitor_stops_on_nan():
    state = {"cur_epoch_num": 1, "cur_step_num": 1, "batch_num": 1,
             "net_outputs": ms.Tensor(float("nan"))}
    with pytest.raises(ValueError, match="loss is NAN or INF"):
        LossMonitor().on_train_step_end(RunContext(state))


def test_model_checkpoint_keeps_the_newest_files(tmp_path):
    network = nn.Dense(2, 1, weight_init="zeros", bias_init="zeros")
    model = Model(network, nn.MSELoss(), nn.SGD(network.trainable_params(), 0.1))
    saver = ModelCheckpoint("run", str(tmp_path), CheckpointConfig(keep_checkpoint_max=3))
    model.train(2, _data(), callbacks=[saver])
    assert sorted(os.listdir(tmp_path)) == ["run-1_2.ckpt", "run-2_1.ckpt", "run-2_2.ckpt"]
    saved = ms.load_checkpoint(saver.latest_ckpt_file_name)
    np.testing.assert_array_equal(saved["weight"].asnumpy(), network.weight.asnumpy())


def test_model_rejects_a_non_cell():
    with pytest.raises(TypeError, match="'network' must be a Cell"):
        Model(lambda x: x)


def test_mixed_precision_network_copies_compute_with_their_own_weights():
    import copy

    network = ms.amp.auto_mixed_precision(
        nn.SequentialCell([nn.Dense(2, 2, weight_init="ones", bias_init="zeros")]), "O3")
    duplicate = copy.deepcopy(network)
    duplicate.get_parameters().__next__().set_data(ms.Tensor(np.zeros((2, 2), np.float32)))
    x = ms.Tensor(np.array([[0.25, 0.5]], np.float32))
    np.testing.assert_array_equal(network(x).asnumpy(), [[0.75, 0.75]])
    np.testing.assert_array_equal(duplicate(x).asnumpy(), [[0.0, 0.0]])
    assert str(network(x).dtype) == "Float32"


def test_to_float_keeps_parameters_and_gradients_in_float32():
    dense = ms.amp.cell_to_float(nn.Dense(2, 1, weight_init="ones", bias_init="zeros"),
                                 ms.float16)
    x = ms.Tensor(np.array([[0.25, 0.5]], np.float32))
    assert str(dense(x).dtype) == "Float16"
    gradients = ms.grad(lambda inputs: dense(inputs).sum(), grad_position=None,
                        weights=dense.trainable_params())(x)
    assert [str(gradient.dtype) for gradient in gradients] == ["Float32", "Float32"]
    np.testing.assert_array_equal(gradients[0].asnumpy(), [[0.25, 0.5]])
