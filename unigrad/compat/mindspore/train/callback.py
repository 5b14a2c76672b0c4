"""``mindspore.train`` callbacks: ``Callback``, ``RunContext``, ``LossMonitor``,
``TimeMonitor``, ``ModelCheckpoint`` and ``CheckpointConfig``.

``Model.train``/``Model.eval`` call each callback's ``on_train_*``/``on_eval_*`` methods
with a :class:`RunContext` whose ``original_args()`` holds the run's state
(``cur_epoch_num``, ``cur_step_num``, ``batch_num``, ``net_outputs``, ``network``...).

Example:
    >>> from unigrad.compat.mindspore.train import Callback, RunContext
    >>> class StopAtTwo(Callback):
    ...     def on_train_step_end(self, run_context):
    ...         if run_context.original_args().cur_step_num == 2:
    ...             run_context.request_stop()
    >>> context = RunContext({"cur_step_num": 2})
    >>> StopAtTwo().on_train_step_end(context)
    >>> context.get_stop_requested()
    True
"""

from __future__ import annotations

import os
import time

import numpy as np

from ....tensor import Tensor as _UgTensor

__all__ = ["Callback", "RunContext", "LossMonitor", "TimeMonitor", "ModelCheckpoint",
           "CheckpointConfig"]


class _CallbackParameters(dict):
    """The run's state: a dict whose keys are also attributes (MindSpore's ``cb_params``)."""

    def __getattr__(self, name: str):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None

    def __setattr__(self, name: str, value) -> None:
        self[name] = value


class RunContext:
    """``RunContext(original_args)``: what callbacks see of a run; ``request_stop()`` ends
    training after the current step.

    Example:
        >>> from unigrad.compat.mindspore.train import RunContext
        >>> context = RunContext({"cur_epoch_num": 1})
        >>> context.original_args().cur_epoch_num, context.get_stop_requested()
        (1, False)
    """

    def __init__(self, original_args: dict):
        if not isinstance(original_args, dict):
            raise TypeError(f"The argument 'original_args' of RunContext should be dict type, "
                            f"but got {type(original_args)}.")
        self._original_args = (original_args if isinstance(original_args, _CallbackParameters)
                               else _CallbackParameters(original_args))
        self._stop_requested = False

    def original_args(self) -> dict:
        """The run's state (keys readable as attributes)."""
        return self._original_args

    def request_stop(self) -> None:
        """Stop training after the current step."""
        self._stop_requested = True

    def get_stop_requested(self) -> bool:
        """Whether a callback asked to stop."""
        return self._stop_requested


class Callback:
    """Base of the callbacks: override ``on_train_begin``, ``on_train_epoch_begin``,
    ``on_train_step_begin``, ``on_train_step_end``, ``on_train_epoch_end``,
    ``on_train_end`` and their ``on_eval_*`` counterparts (by default they call
    MindSpore's older ``begin``/``epoch_begin``/``step_begin``/``step_end``/
    ``epoch_end``/``end``, which do nothing).

    Example:
        >>> from unigrad.compat.mindspore.train import Callback, RunContext
        >>> class Count(Callback):
        ...     def step_end(self, run_context):
        ...         print("step", run_context.original_args().cur_step_num)
        >>> Count().on_train_step_end(RunContext({"cur_step_num": 3}))
        step 3
    """

    def begin(self, run_context: RunContext) -> None:
        """Called once before the run."""

    def epoch_begin(self, run_context: RunContext) -> None:
        """Called before each epoch."""

    def epoch_end(self, run_context: RunContext) -> None:
        """Called after each epoch."""

    def step_begin(self, run_context: RunContext) -> None:
        """Called before each step."""

    def step_end(self, run_context: RunContext) -> None:
        """Called after each step."""

    def end(self, run_context: RunContext) -> None:
        """Called once after the run."""

    def on_train_begin(self, run_context: RunContext) -> None:
        """Before training (calls ``begin``)."""
        self.begin(run_context)

    def on_train_epoch_begin(self, run_context: RunContext) -> None:
        """Before each training epoch (calls ``epoch_begin``)."""
        self.epoch_begin(run_context)

    def on_train_epoch_end(self, run_context: RunContext) -> None:
        """After each training epoch (calls ``epoch_end``)."""
        self.epoch_end(run_context)

    def on_train_step_begin(self, run_context: RunContext) -> None:
        """Before each training step (calls ``step_begin``)."""
        self.step_begin(run_context)

    def on_train_step_end(self, run_context: RunContext) -> None:
        """After each training step (calls ``step_end``)."""
        self.step_end(run_context)

    def on_train_end(self, run_context: RunContext) -> None:
        """After training (calls ``end``)."""
        self.end(run_context)

    def on_eval_begin(self, run_context: RunContext) -> None:
        """Before evaluation (calls ``begin``)."""
        self.begin(run_context)

    def on_eval_epoch_begin(self, run_context: RunContext) -> None:
        """Before the evaluation pass (calls ``epoch_begin``)."""
        self.epoch_begin(run_context)

    def on_eval_epoch_end(self, run_context: RunContext) -> None:
        """After the evaluation pass (calls ``epoch_end``)."""
        self.epoch_end(run_context)

    def on_eval_step_begin(self, run_context: RunContext) -> None:
        """Before each evaluation step (calls ``step_begin``)."""
        self.step_begin(run_context)

    def on_eval_step_end(self, run_context: RunContext) -> None:
        """After each evaluation step (calls ``step_end``)."""
        self.step_end(run_context)

    def on_eval_end(self, run_context: RunContext) -> None:
        """After evaluation (calls ``end``)."""
        self.end(run_context)


def _check_int(value, positive: bool = False) -> int:
    """``value`` when it is an int >= 0 (> 0 if ``positive``); else MindSpore's ValueError."""
    if isinstance(value, bool) or not isinstance(value, int) or value < int(positive):
        raise ValueError(f"The input value must be int and must {'>' if positive else '>='} 0, "
                         f"but got '{value}' with type '{type(value).__name__}'.")
    return value


def _loss_value(outputs):
    """The loss LossMonitor prints: a Tensor's mean as a float, a tuple's first Tensor."""
    if isinstance(outputs, (tuple, list)):
        return outputs[0]
    if isinstance(outputs, _UgTensor):
        return float(np.mean(outputs.asnumpy()))
    return outputs


class LossMonitor(Callback):
    """``LossMonitor(per_print_times=1)``: prints ``epoch: E step: S, loss is L`` every
    ``per_print_times`` steps (``S`` counted within the epoch; 0: never) and raises
    ``ValueError`` when the loss is NaN or infinite.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore.train import LossMonitor, RunContext
        >>> state = {"cur_epoch_num": 1, "cur_step_num": 2, "batch_num": 2,
        ...          "net_outputs": ms.Tensor(0.25), "dataset_sink_mode": False}
        >>> LossMonitor().on_train_step_end(RunContext(state))
        epoch: 1 step: 2, loss is 0.25
    """

    def __init__(self, per_print_times: int = 1):
        super().__init__()
        self._per_print_times = _check_int(per_print_times)
        self._last_print_time = 0

    def step_end(self, run_context: RunContext) -> None:
        state = run_context.original_args()
        epoch = state.get("cur_epoch_num", 1)
        loss = _loss_value(state.net_outputs)
        step_in_epoch = (state.cur_step_num - 1) % state.batch_num + 1
        if isinstance(loss, float) and not np.isfinite(loss):
            raise ValueError(f"In epoch: {epoch} step: {step_in_epoch}, loss is NAN or INF, "
                             f"training process cannot continue, terminating training.")
        if self._per_print_times and state.cur_step_num - self._last_print_time \
                >= self._per_print_times:
            self._last_print_time = state.cur_step_num
            print(f"epoch: {epoch} step: {step_in_epoch}, loss is {loss}", flush=True)


class TimeMonitor(Callback):
    """``TimeMonitor(data_size=None, data_time=False)``: prints each epoch's time and time
    per step (``Train epoch time: T ms, per step time: P ms``; milliseconds vary run to run).

    Example:
        >>> from unigrad.compat.mindspore.train import TimeMonitor
        >>> TimeMonitor(data_size=4).data_size
        4
    """

    def __init__(self, data_size: int | None = None, data_time: bool = False):
        super().__init__()
        if data_size is not None:
            data_size = _check_int(data_size)
        if not isinstance(data_time, bool):
            raise TypeError(f"The 'data_time' must be a bool, but got "
                            f"{type(data_time).__name__}.")
        self.data_size = data_size
        self.data_time = data_time
        self._epoch_start = 0.0

    def epoch_begin(self, run_context: RunContext) -> None:
        self._epoch_start = time.time()

    def epoch_end(self, run_context: RunContext) -> None:
        milliseconds = (time.time() - self._epoch_start) * 1000
        steps = self.data_size or run_context.original_args().batch_num
        mode = run_context.original_args().get("mode", "train").capitalize()
        print(f"{mode} epoch time: {milliseconds:5.3f} ms, per step time: "
              f"{milliseconds / steps:5.3f} ms", flush=True)

    on_eval_epoch_begin = epoch_begin
    on_eval_epoch_end = epoch_end


class CheckpointConfig:
    """``CheckpointConfig(save_checkpoint_steps=1, save_checkpoint_seconds=0,
    keep_checkpoint_max=5, ...)``: when :class:`ModelCheckpoint` saves (every
    ``save_checkpoint_steps`` steps) and how many files it keeps.

    Example:
        >>> from unigrad.compat.mindspore.train import CheckpointConfig
        >>> config = CheckpointConfig(save_checkpoint_steps=2, keep_checkpoint_max=1)
        >>> config.save_checkpoint_steps, config.keep_checkpoint_max
        (2, 1)
    """

    def __init__(self, save_checkpoint_steps: int = 1, save_checkpoint_seconds: int = 0,
                 keep_checkpoint_max: int = 5, keep_checkpoint_per_n_minutes: int = 0,
                 integrated_save: bool = True, async_save: bool = False, saved_network=None,
                 append_info=None, enc_key=None, enc_mode: str = "AES-GCM",
                 exception_save: bool = False, crc_check: bool = False,
                 remove_redundancy: bool = False, format: str = "ckpt", **kwargs):
        for value in (save_checkpoint_steps, save_checkpoint_seconds, keep_checkpoint_max,
                      keep_checkpoint_per_n_minutes):
            _check_int(value)
        if not any((save_checkpoint_steps, save_checkpoint_seconds, keep_checkpoint_max,
                    keep_checkpoint_per_n_minutes)):
            raise ValueError("For 'CheckpointConfig', the input arguments 'save_checkpoint_steps', "
                             "'save_checkpoint_seconds', 'keep_checkpoint_max' and "
                             "'keep_checkpoint_per_n_minutes' can't be all None or 0.")
        self.save_checkpoint_steps = save_checkpoint_steps
        self.save_checkpoint_seconds = save_checkpoint_seconds
        self.keep_checkpoint_max = keep_checkpoint_max
        self.keep_checkpoint_per_n_minutes = keep_checkpoint_per_n_minutes
        self.integrated_save = integrated_save
        self.async_save = async_save
        self.saved_network = saved_network
        self.append_info = append_info
        self.enc_key = enc_key
        self.enc_mode = enc_mode
        self.exception_save = exception_save
        self.crc_check = crc_check
        self.remove_redundancy = remove_redundancy
        self.format = format


class ModelCheckpoint(Callback):
    """``ModelCheckpoint(prefix='CKP', directory=None, config=None)``: saves the trained
    network to ``{directory}/{prefix}-{epoch}_{step in epoch}.ckpt`` every
    ``config.save_checkpoint_steps`` steps, keeping the newest ``keep_checkpoint_max`` files
    (``latest_ckpt_file_name`` is the last one written).

    Example:
        >>> from unigrad.compat.mindspore.train import ModelCheckpoint
        >>> ModelCheckpoint(prefix="net", directory="/tmp/run").latest_ckpt_file_name
        ''
    """

    def __init__(self, prefix: str = "CKP", directory: str | None = None, config=None):
        super().__init__()
        if not isinstance(prefix, str) or "/" in prefix:
            raise ValueError(f"For 'ModelCheckpoint', the argument 'prefix' for checkpoint file "
                             f"name is invalid, it must be string and does not contain '/', but "
                             f"got {prefix}.")
        if config is not None and not isinstance(config, CheckpointConfig):
            raise TypeError(f"For 'ModelCheckpoint', the type of argument 'config' must be "
                            f"'CheckpointConfig', but got {type(config)}.")
        self._prefix = prefix
        self._directory = os.path.realpath(directory) if directory is not None else os.getcwd()
        self._config = config if config is not None else CheckpointConfig()
        self._written: list[str] = []
        self._latest = ""

    @property
    def latest_ckpt_file_name(self) -> str:
        """The path of the last checkpoint written ('' before the first)."""
        return self._latest

    def step_end(self, run_context: RunContext) -> None:
        state = run_context.original_args()
        steps = self._config.save_checkpoint_steps
        if steps and state.cur_step_num % steps == 0:
            self._save(state)

    def _save(self, state: dict) -> None:
        from .._checkpoint import save_checkpoint

        step_in_epoch = (state.cur_step_num - 1) % state.batch_num + 1
        os.makedirs(self._directory, exist_ok=True)
        path = os.path.join(self._directory,
                            f"{self._prefix}-{state.cur_epoch_num}_{step_in_epoch}.ckpt")
        network = self._config.saved_network or state.train_network
        save_checkpoint(network, path, append_dict=self._config.append_info)
        self._latest = path
        self._written = [name for name in self._written if name != path] + [path]
        while self._config.keep_checkpoint_max and \
                len(self._written) > self._config.keep_checkpoint_max:
            os.remove(self._written.pop(0))
