"""``mindspore.train.Model``: ``train``, ``eval`` and ``predict`` of a network.

Example:
    >>> import numpy as np
    >>> import unigrad.compat.mindspore as ms
    >>> from unigrad.compat.mindspore import nn
    >>> from unigrad.compat.mindspore.train import Model, MAE
    >>> x = np.array([[0.0], [1.0], [2.0], [3.0]], np.float32)
    >>> data = ms.dataset.NumpySlicesDataset((x, 2 * x), column_names=["x", "y"],
    ...                                      shuffle=False).batch(2)
    >>> net = nn.Dense(1, 1, weight_init="ones", bias_init="zeros")
    >>> model = Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.05),
    ...               metrics={"mae": MAE()})
    >>> model.train(1, data)
    >>> print(model.eval(data)["mae"])
    0.37624990940093994
"""

from __future__ import annotations

from collections.abc import Iterable

from .... import nn as _ugnn
from .. import nn
from .callback import Callback, RunContext, _CallbackParameters, _check_int
from .metrics import MAE, MSE, Accuracy, Loss, Metric

__all__ = ["Model"]

_METRICS_BY_NAME = {"acc": Accuracy, "accuracy": Accuracy, "loss": Loss, "mae": MAE,
                    "mse": MSE}


def _metrics(metrics) -> dict[str, Metric]:
    """``{name: Metric}`` from a dict of Metrics or a set of names (``{'accuracy'}``)."""
    if metrics is None:
        return {}
    if isinstance(metrics, dict):
        return dict(metrics)
    if isinstance(metrics, (set, list, tuple)):
        unknown = [name for name in metrics if name not in _METRICS_BY_NAME]
        if unknown:
            raise KeyError(f"Unknown Metric name: {unknown[0]}")
        return {name: _METRICS_BY_NAME[name]() for name in metrics}
    raise TypeError(f"For 'Model', the argument 'metrics' must be dict or set, but got "
                    f"{type(metrics)}.")


def _callbacks(callbacks) -> list[Callback]:
    if callbacks is None:
        return []
    items = list(callbacks) if isinstance(callbacks, (list, tuple)) else [callbacks]
    for item in items:
        if not isinstance(item, Callback):
            raise TypeError(f"When the 'callbacks' is a list, the elements in 'callbacks' must "
                            f"be Callback functions, but got {type(item)}.")
    return items


def _notify(callbacks: Iterable[Callback], event: str, context: RunContext) -> None:
    for callback in callbacks:
        getattr(callback, event)(context)


class Model:
    """``Model(network, loss_fn=None, optimizer=None, metrics=None, eval_network=None,
    eval_indexes=None, amp_level='O0', boost_level='O0')``: trains ``network`` with
    ``loss_fn`` and ``optimizer`` (``TrainOneStepCell(WithLossCell(network, loss_fn),
    optimizer)``), evaluates ``metrics`` (a dict of Metrics or a set of names such as
    ``{'accuracy'}``) and predicts. Datasets are ``mindspore.dataset`` datasets whose rows
    are ``(*inputs, label)``.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> from unigrad.compat.mindspore.train import Model
        >>> net = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
        >>> Model(net).predict(ms.Tensor([[1.0, 2.0]]))
        Tensor(shape=[1, 1], dtype=Float32, value=
        [[3.00000000e+000]])
    """

    def __init__(self, network, loss_fn=None, optimizer=None, metrics=None, eval_network=None,
                 eval_indexes: list | None = None, amp_level: str = "O0",
                 boost_level: str = "O0", **kwargs):
        if not isinstance(network, _ugnn.Cell):
            raise TypeError(f"For 'Model', the argument 'network' must be a Cell, but got "
                            f"{type(network)}.")
        if eval_indexes is not None and (not isinstance(eval_indexes, list)
                                         or len(eval_indexes) != 3):
            raise ValueError(f"For 'Model', the argument 'eval_indexes' must be a list of 3 "
                             f"indexes (loss, output, label) or None, but got {eval_indexes}.")
        self._network = network
        self._loss_fn = loss_fn
        self._optimizer = optimizer
        self._metric_fns = _metrics(metrics)
        self._amp_level = amp_level
        self._boost_level = boost_level
        self._kwargs = kwargs
        self._train_network = self._build_train_network()
        self._eval_network, self._eval_indexes = self._build_eval_network(eval_network,
                                                                          eval_indexes)

    def _build_train_network(self):
        """``TrainOneStepCell`` over the network with its loss (mixed precision by
        ``amp_level``); the network (with its loss) itself without an optimizer."""
        if self._optimizer is not None:
            from ..amp import build_train_network

            return build_train_network(self._network, self._optimizer, self._loss_fn,
                                       level=self._amp_level, **self._kwargs)
        if self._loss_fn is not None:
            return nn.WithLossCell(self._network, self._loss_fn)
        return self._network

    def _build_eval_network(self, eval_network, eval_indexes):
        if eval_network is not None:
            return eval_network, eval_indexes
        if self._loss_fn is not None and self._metric_fns:
            return _WithEvalCell(self._network, self._loss_fn), [0, 1, 2]
        return None, None

    @property
    def train_network(self):
        """The Cell one training step calls."""
        return self._train_network

    @property
    def eval_network(self):
        """The Cell ``eval`` calls (None: the network itself)."""
        return self._eval_network

    @property
    def predict_network(self):
        """The Cell ``predict`` calls."""
        return self._network

    def _state(self, epoch: int, dataset, callbacks: list, mode: str) -> _CallbackParameters:
        return _CallbackParameters(
            epoch_num=epoch, batch_num=dataset.get_dataset_size(), cur_epoch_num=0,
            cur_step_num=0, net_outputs=None, network=self._network,
            train_network=self._train_network, loss_fn=self._loss_fn,
            optimizer=self._optimizer, mode=mode, list_callback=callbacks,
            dataset_sink_mode=False, train_dataset=dataset if mode == "train" else None,
            valid_dataset=dataset if mode == "eval" else None)

    def train(self, epoch: int, train_dataset, callbacks=None, dataset_sink_mode: bool = False,
              sink_size: int = -1, initial_epoch: int = 0) -> None:
        """Run ``epoch`` passes over ``train_dataset`` (epochs numbered from
        ``initial_epoch + 1``), one optimizer step per row, calling the callbacks;
        ``dataset_sink_mode`` only changes how MindSpore feeds a device (not done here)."""
        _check_int(epoch, positive=True)
        callback_list = _callbacks(callbacks)
        state = self._state(epoch, train_dataset, callback_list, "train")
        state.cur_step_num = initial_epoch * state.batch_num
        context = RunContext(state)
        self._train_network.set_train(True)
        _notify(callback_list, "on_train_begin", context)
        for epoch_number in range(initial_epoch + 1, epoch + 1):
            state.cur_epoch_num = epoch_number
            _notify(callback_list, "on_train_epoch_begin", context)
            for row in train_dataset.create_tuple_iterator():
                state.cur_step_num += 1
                state.train_dataset_element = row
                _notify(callback_list, "on_train_step_begin", context)
                state.net_outputs = self._train_network(*row)
                _notify(callback_list, "on_train_step_end", context)
                if context.get_stop_requested():
                    break
            _notify(callback_list, "on_train_epoch_end", context)
            if context.get_stop_requested():
                break
        _notify(callback_list, "on_train_end", context)

    def eval(self, valid_dataset, callbacks=None, dataset_sink_mode: bool = False) -> dict:
        """``{name: value}`` of the metrics over ``valid_dataset`` (rows ``(*inputs,
        label)``), the network in inference mode."""
        if not self._metric_fns:
            raise ValueError("For Model.eval, the model argument 'metrics' can not be None or "
                             "empty, you should set the argument 'metrics' for model.")
        callback_list = _callbacks(callbacks)
        state = self._state(1, valid_dataset, callback_list, "eval")
        context = RunContext(state)
        for metric in self._metric_fns.values():
            metric.clear()
        network = self._eval_network if self._eval_network is not None else self._network
        network.set_train(False)
        _notify(callback_list, "on_eval_begin", context)
        state.cur_epoch_num = 1
        _notify(callback_list, "on_eval_epoch_begin", context)
        for row in valid_dataset.create_tuple_iterator():
            state.cur_step_num += 1
            _notify(callback_list, "on_eval_step_begin", context)
            outputs = self._evaluate(network, row)
            state.net_outputs = outputs
            self._update_metrics(outputs)
            _notify(callback_list, "on_eval_step_end", context)
        _notify(callback_list, "on_eval_epoch_end", context)
        state.metrics = {name: metric.eval() for name, metric in self._metric_fns.items()}
        _notify(callback_list, "on_eval_end", context)
        return state.metrics

    def _evaluate(self, network, row: tuple) -> tuple:
        if network is self._network:
            return network(*row[:-1]), row[-1]
        outputs = network(*row)
        return outputs if isinstance(outputs, tuple) else (outputs,)

    def _update_metrics(self, outputs: tuple) -> None:
        for metric in self._metric_fns.values():
            indexes = metric.indexes or (self._eval_indexes[1:] if self._eval_indexes
                                         else None)
            if isinstance(metric, Loss) and self._eval_indexes and metric.indexes is None:
                metric.update(outputs[self._eval_indexes[0]])
            elif indexes is not None:
                metric.update(*(outputs[index] for index in indexes))
            else:
                metric.update(*outputs)

    def predict(self, *predict_data, backend=None, config=None):
        """The network's output for ``predict_data``, in inference mode."""
        self._network.set_train(False)
        return self._network(*predict_data)


class _WithEvalCell(nn.Cell):
    """``(loss, outputs, label)`` of the network on ``(*inputs, label)`` (MindSpore's
    ``nn.WithEvalCell``)."""

    def __init__(self, network, loss_fn):
        super().__init__(auto_prefix=False)
        self._network = network
        self._loss_fn = loss_fn

    def construct(self, *inputs):
        outputs = self._network(*inputs[:-1])
        label = inputs[-1]
        return self._loss_fn(outputs, label), outputs, label
