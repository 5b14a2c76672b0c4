"""MindSpore cases: checkpoints, ``mindspore.train.Model`` and ``amp`` (see mindspore_cases.py
for the conventions). Checkpoint cases write into a fresh temporary folder, and replace its
path by ``<dir>`` in error messages."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import numpy as np

from . import case

FIXTURES = Path(__file__).resolve().parent.parent / "data" / "mindspore"

# -------------------------------------------------------------------------- checkpoints


def _dense(ms, in_channels: int = 3, out_channels: int = 2, offset: float = 0.0):
    """A Dense layer with known weights."""
    net = ms.nn.Dense(in_channels, out_channels)
    weight = np.arange(in_channels * out_channels, dtype=np.float32).reshape(
        out_channels, in_channels) / 4 + offset
    net.weight.set_data(ms.Tensor(weight))
    net.bias.set_data(ms.Tensor(np.full(out_channels, offset - 1, np.float32)))
    return net


def _in_temporary_folder(function):
    """Run ``function(ms, folder)`` in a new folder removed afterwards."""
    def run(ms):
        folder = tempfile.mkdtemp()
        try:
            return function(ms, folder)
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    run.__name__ = function.__name__
    return run


def _error(call, folder: str) -> list:
    """``[type name, message]`` of the error ``call()`` raises (``folder`` written ``<dir>``)."""
    try:
        call()
    except Exception as error:  # noqa: BLE001 - the type is the result
        message = str(error)
        return [type(error).__name__, message.replace(folder, "<dir>") if folder else message]
    return ["no error", ""]


def _described(parameters: dict) -> dict:
    """``{name: [dtype, shape, values]}`` of a loaded parameter dict (strings as they are)."""
    return {name: value if isinstance(value, str) else
            [str(value.dtype), list(value.shape), value.asnumpy(), value.name]
            for name, value in parameters.items()}


@case
@_in_temporary_folder
def case_training_checkpoint_cell_round_trip(ms, folder):
    path = os.path.join(folder, "dense")
    ms.save_checkpoint(_dense(ms, offset=0.5), path)
    loaded = ms.load_checkpoint(path + ".ckpt")
    target = _dense(ms)
    outcome = ms.load_param_into_net(target, loaded)
    return [_described(loaded), list(outcome), target.weight.asnumpy(), target.bias.asnumpy(),
            sorted(os.listdir(folder))]


@case
@_in_temporary_folder
def case_training_checkpoint_bytes_of_a_list(ms, folder):
    path = os.path.join(folder, "values.ckpt")
    ms.save_checkpoint([{"name": "w", "data": ms.Tensor(np.array([[1.5, -2.0]], np.float32))},
                        {"name": "scalar", "data": ms.Tensor(np.float64(-3.25))},
                        {"name": "ints", "data": ms.Tensor(np.array([1, -300], np.int64))},
                        {"name": "flags", "data": ms.Tensor(np.array([True, False]))}],
                       path, append_dict={"epoch_num": 2, "lr": 0.01, "note": "ok"})
    return np.frombuffer(Path(path).read_bytes(), np.uint8)


@case
def case_training_checkpoint_fixtures(ms):
    return {framework: _described(ms.load_checkpoint(str(FIXTURES /
                                                         f"written_by_{framework}.ckpt")))
            for framework in ("mindspore", "unigrad")}


@case
@_in_temporary_folder
def case_training_checkpoint_prefixes(ms, folder):
    path = os.path.join(folder, "net.ckpt")
    ms.save_checkpoint([{"name": "net.weight", "data": ms.Tensor(np.ones((2, 3), np.float32))},
                        {"name": "net.bias", "data": ms.Tensor(np.zeros(2, np.float32))},
                        {"name": "head.bias", "data": ms.Tensor(np.ones(2, np.float32))}], path)
    filtered = sorted(ms.load_checkpoint(path, filter_prefix=["head", "net.b"]))
    specified = sorted(ms.load_checkpoint(path, specify_prefix="net."))
    chosen = sorted(ms.load_checkpoint(path, choice_func=lambda name: name.endswith("bias")))
    target = _dense(ms)
    outcome = ms.load_param_into_net(target, ms.load_checkpoint(path))
    return [filtered, specified, chosen, list(outcome), target.weight.asnumpy(),
            target.bias.asnumpy()]


@case
@_in_temporary_folder
def case_training_checkpoint_load_into_net_argument(ms, folder):
    path = os.path.join(folder, "dense.ckpt")
    ms.save_checkpoint(_dense(ms, offset=2.0), path)
    target = _dense(ms)
    loaded = ms.load_checkpoint(path, net=target, filter_prefix="bias")
    return [sorted(loaded), target.weight.asnumpy(), target.bias.asnumpy()]


@case
def case_training_checkpoint_dtype_conversion(ms):
    net = _dense(ms)
    half = {"weight": ms.Parameter(ms.Tensor(np.full((2, 3), 0.5, np.float16)), name="weight")}
    outcome = ms.load_param_into_net(net, half)
    strict = _error(lambda: ms.load_param_into_net(_dense(ms), half, strict_load=True), "")
    return [list(outcome), net.weight.asnumpy(), strict]


@case
def case_training_checkpoint_load_param_errors(ms):
    net = _dense(ms)
    wrong_shape = {"weight": ms.Parameter(ms.Tensor(np.ones((4, 3), np.float32)), name="weight"),
                   "bias": ms.Parameter(ms.Tensor(np.ones(2, np.float32)), name="bias")}
    wrong_type = {"bias": ms.Parameter(ms.Tensor(np.ones(2, np.float32)), name="bias"),
                  "weight": ms.Parameter(ms.Tensor(np.ones((2, 3), np.int32)), name="weight")}
    errors = [_error(lambda: ms.load_param_into_net(net, wrong_shape), ""),
              _error(lambda: ms.load_param_into_net(net, wrong_type), ""),
              _error(lambda: ms.load_param_into_net(net, {"weight": 1}), ""),
              _error(lambda: ms.load_param_into_net(3, {}), ""),
              _error(lambda: ms.load_param_into_net(net, []), "")]
    return [errors, net.weight.asnumpy(), net.bias.asnumpy()]


@case
@_in_temporary_folder
def case_training_checkpoint_file_errors(ms, folder):
    good = os.path.join(folder, "good.ckpt")
    ms.save_checkpoint(_dense(ms, offset=1.0), good)
    data = Path(good).read_bytes()
    damaged = {"truncated.ckpt": data[:-5], "garbage.ckpt": b"hello world garbage",
               "empty.ckpt": b""}
    for name, content in damaged.items():
        Path(folder, name).write_bytes(content)
    net = _dense(ms)
    errors = [_error(lambda name=name: ms.load_checkpoint(os.path.join(folder, name), net=net),
                     folder) for name in [*damaged, "missing.ckpt"]]
    errors.append(_error(lambda: ms.load_checkpoint(os.path.join(folder, "good")), folder))
    errors.append(_error(lambda: ms.load_checkpoint(3), folder))
    errors.append(_error(lambda: ms.save_checkpoint(3, good), folder))
    errors.append(_error(lambda: ms.save_checkpoint([{"name": "a"}], good), folder))
    return [errors, net.weight.asnumpy(), net.bias.asnumpy()]


# ------------------------------------------------------------------------------- Model


def _regression_data(ms):
    x = np.arange(12, dtype=np.float32).reshape(6, 2) / 10
    y = (x.sum(1, keepdims=True) * 2 - 1).astype(np.float32)
    return ms.dataset.NumpySlicesDataset((x, y), column_names=["x", "y"],
                                         shuffle=False).batch(2)


def _regression_model(ms, metrics=None):
    net = ms.nn.Dense(2, 1)
    net.weight.set_data(ms.Tensor(np.array([[0.1, -0.2]], np.float32)))
    net.bias.set_data(ms.Tensor(np.zeros(1, np.float32)))
    model = ms.train.Model(net, ms.nn.MSELoss(), ms.nn.SGD(net.trainable_params(), 0.1),
                           metrics=metrics)
    return net, model


def _printed(call) -> str:
    """What ``call()`` prints."""
    import contextlib
    import io

    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        call()
    return buffer.getvalue()


@case(rtol=1e-5)
def case_training_model_train_loss_monitor(ms):
    net, model = _regression_model(ms)
    printed = _printed(lambda: model.train(2, _regression_data(ms),
                                           callbacks=[ms.train.LossMonitor(2)]))
    return [printed.splitlines(), net.weight.asnumpy(), net.bias.asnumpy()]


@case(rtol=1e-5)
def case_training_model_eval_and_predict(ms):
    net, model = _regression_model(ms, metrics={"mae": ms.train.MAE(), "mse": ms.train.MSE(),
                                                "loss": ms.train.Loss()})
    model.train(1, _regression_data(ms))
    result = model.eval(_regression_data(ms))
    prediction = model.predict(ms.Tensor(np.array([[0.5, 1.0]], np.float32)))
    return [result, prediction.asnumpy()]


class _Recorder:
    """A callback class (made from ms.train.Callback) that logs what it sees."""

    @staticmethod
    def make(ms, log: list):
        class Recorder(ms.train.Callback):
            def on_train_begin(self, run_context):
                log.append(["begin", run_context.original_args().epoch_num])

            def on_train_step_end(self, run_context):
                state = run_context.original_args()
                log.append(["step", state.cur_epoch_num, state.cur_step_num, state.batch_num])
                if state.cur_step_num == 4:
                    run_context.request_stop()

            def epoch_end(self, run_context):
                log.append(["epoch end", run_context.original_args().cur_epoch_num])

            def on_train_end(self, run_context):
                log.append(["end"])
        return Recorder()


def case_training_model_callbacks_and_stop(ms):
    log: list = []
    _, model = _regression_model(ms)
    model.train(3, _regression_data(ms), callbacks=_Recorder.make(ms, log))
    return log


case_training_model_callbacks_and_stop = case(case_training_model_callbacks_and_stop)


@case
def case_training_model_errors(ms):
    _, model = _regression_model(ms)
    return [_error(lambda: model.train(0, _regression_data(ms)), ""),
            _error(lambda: model.eval(_regression_data(ms)), ""),
            _error(lambda: ms.train.LossMonitor(-1), "")]


@case
def case_training_accuracy_metric(ms):
    metric = ms.train.Accuracy()
    metric.update(ms.Tensor(np.array([[0.1, 0.9], [0.7, 0.3], [0.4, 0.6]], np.float32)),
                  ms.Tensor(np.array([1, 0, 0], np.int32)))
    first = metric.eval()
    metric.update(np.array([[0.2, 0.8]], np.float32), np.array([[0, 1]], np.float32))
    metric.clear()
    return [first, _error(metric.eval, "")]


@case
@_in_temporary_folder
def case_training_model_checkpoint_callback(ms, folder):
    net, model = _regression_model(ms)
    config = ms.train.CheckpointConfig(save_checkpoint_steps=2, keep_checkpoint_max=2)
    saver = ms.train.ModelCheckpoint(prefix="net", directory=folder, config=config)
    model.train(2, _regression_data(ms), callbacks=[saver])
    latest = ms.load_checkpoint(saver.latest_ckpt_file_name)
    return [sorted(os.listdir(folder)), os.path.basename(saver.latest_ckpt_file_name),
            latest["weight"].asnumpy(), net.weight.asnumpy()]


# --------------------------------------------------------------------------------- amp


def _amp_network(ms):
    network = ms.nn.SequentialCell([ms.nn.Dense(2, 3), ms.nn.ReLU(), ms.nn.Dense(3, 1)])
    for index, param in enumerate(network.get_parameters()):
        values = np.linspace(-1, 1, int(np.prod(param.shape)), dtype=np.float32) / 3 + index / 7
        param.set_data(ms.Tensor(values.reshape(param.shape)))
    return network


def _in_folder(folder: str, call):
    """``call()`` run from ``folder`` (MindSpore's O1 writes its rewritten network into the
    working folder)."""
    previous = os.getcwd()
    os.chdir(folder)
    try:
        return call()
    finally:
        os.chdir(previous)


_AMP_INPUT = np.array([[0.3, -1.7], [1.1, 0.9]], np.float32)


@case(rtol=2e-3, atol=1e-3)
@_in_temporary_folder
def case_training_amp_levels(ms, folder):
    results = {}
    for level in ("O0", "O1", "O2", "O3"):
        network = _in_folder(folder, lambda level=level: ms.amp.auto_mixed_precision(
            _amp_network(ms), level))
        output = network(ms.Tensor(_AMP_INPUT))
        results[level] = [str(output.dtype), output.asnumpy(),
                          [str(param.dtype) for param in network.get_parameters()],
                          [param.name for param in network.get_parameters()]]
    return results


@case(rtol=2e-3, atol=1e-3)
def case_training_amp_build_train_network_o3(ms):
    network = _amp_network(ms)
    step = ms.amp.build_train_network(network, ms.nn.SGD(network.trainable_params(), 0.1),
                                      ms.nn.MSELoss(), level="O3")
    loss = step(ms.Tensor(_AMP_INPUT), ms.Tensor(np.ones((2, 1), np.float32)))
    return [type(step).__name__, str(loss.dtype), loss.asnumpy(), network[0].weight.asnumpy(),
            str(network[0].weight.dtype)]


@case(rtol=2e-3, atol=1e-3)
def case_training_amp_o3_model_train(ms):
    network = _amp_network(ms)
    model = ms.train.Model(network, ms.nn.MSELoss(), ms.nn.SGD(network.trainable_params(), 0.1),
                           amp_level="O3")
    model.train(1, _regression_data(ms))
    return [network[0].weight.asnumpy(), network[2].bias.asnumpy()]


@case
def case_training_amp_errors(ms):
    network = _amp_network(ms)
    optimizer = ms.nn.SGD(network.trainable_params(), 0.1)
    return [_error(lambda: ms.amp.auto_mixed_precision(network, "O5"), ""),
            _error(lambda: ms.amp.auto_mixed_precision(network, "O1", ms.float32), ""),
            _error(lambda: ms.amp.build_train_network(network, optimizer, level="O7"), ""),
            _error(lambda: ms.amp.build_train_network(network, optimizer, colour=1), "")]


@case(rtol=1e-5)
def case_training_model_metric_names(ms):
    x = np.array([[0.5, -1.0], [1.5, 0.2], [-0.3, 0.8], [1.0, 1.0]], np.float32)
    labels = np.array([0, 1, 1, 0], np.int32)
    data = ms.dataset.NumpySlicesDataset((x, labels), column_names=["x", "label"],
                                         shuffle=False).batch(2)
    net = ms.nn.Dense(2, 2)
    net.weight.set_data(ms.Tensor(np.array([[0.3, -0.2], [-0.1, 0.4]], np.float32)))
    net.bias.set_data(ms.Tensor(np.zeros(2, np.float32)))
    model = ms.train.Model(net, ms.nn.CrossEntropyLoss(), metrics={"accuracy", "loss"})
    return model.eval(data)
