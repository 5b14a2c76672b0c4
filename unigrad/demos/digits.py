"""digits: classify scikit-learn's 8x8 digits with a Cell, trained the MindSpore way.

The data is scikit-learn's bundled ``load_digits`` (1,797 images, no
download) with a fixed stratified 75/25 train/test split and features
standardized with the training set's mean and deviation. The model is a
64 -> 64 (tanh) -> 10 MLP written as a ``ug.nn.Cell``. One training update:

1. for each of ``accumulate_steps`` micro-batches,
   ``ug.value_and_grad(forward_fn, grad_position=None,
   weights=net.trainable_params(), has_aux=True)`` gives the gradients of the
   loss scaled by ``ug.amp.DynamicLossScaler.scale`` (and divided by the
   number of micro-batches); ``ug.nn.GradAccumulator`` sums them;
2. on every ``accumulate_steps``-th micro-batch the accumulator hands the sum
   to :class:`LossScaledUpdate`: ``scaler.unscale``, ``ug.amp.all_finite``,
   ``ug.ops.clip_by_global_norm``, ``optimizer(grads)`` (``ug.optim.Momentum``)
   when the gradients are finite (the update is skipped otherwise), then
   ``scaler.adjust(finite)``.

The targets are one-hot float rows and the loss is
``ug.nn.SoftmaxCrossEntropyWithLogits(sparse=False, reduction="mean")``:
integer label tensors cannot be arguments of a ``ug.jit`` function yet, and
both modes must run the same computation. With ``jit=True`` the micro-batch
forward and backward, the unscaling, and the clipping plus optimizer update
are each compiled with ``ug.jit``; ``all_finite`` and the skip decision stay
in Python (control flow on a tensor value cannot be traced).

Example (needs scikit-learn, so it is not run by the doctests):
    >>> data = load_data()                                   # doctest: +SKIP
    >>> run = train(QUICK, data, seed=0)                     # doctest: +SKIP
    >>> run.accuracy > 0.9                                   # doctest: +SKIP
    True
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

import unigrad as ug

from ._report import (
    DemoOptions,
    DemoResult,
    format_table,
    new_figure,
    progress_bar,
    save_figure,
    seconds,
)

NAME = "digits"
DESCRIPTION = "MindSpore style: digits classifier with loss scaling, clipping, accumulation"

CLASSES = 10


@dataclass(frozen=True)
class DigitsConfig:
    """Model and training sizes of the digits demo.

    Each update sums ``accumulate_steps`` micro-batches of ``batch_size``
    images; an epoch is ``len(train) // (batch_size * accumulate_steps)``
    updates (the incomplete remainder of the shuffled set is dropped, so
    every compiled call sees the same shapes).
    """

    epochs: int = 25
    hidden: int = 64
    batch_size: int = 32
    accumulate_steps: int = 2
    learning_rate: float = 0.05
    momentum: float = 0.9
    clip_norm: float = 1.0
    scale_value: float = 2.0 ** 16
    scale_factor: int = 2
    scale_window: int = 50

    def __post_init__(self) -> None:
        for name in ("epochs", "hidden", "batch_size", "accumulate_steps", "scale_factor",
                     "scale_window"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"DigitsConfig: {name!r} must be a positive int, got {value!r}")
        for name in ("learning_rate", "clip_norm", "scale_value"):
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or not value > 0:
                raise ValueError(f"DigitsConfig: {name!r} must be a positive number, got "
                                 f"{value!r}")
        if not 0 <= self.momentum < 1:
            raise ValueError(f"DigitsConfig: 'momentum' must be in [0, 1), got "
                             f"{self.momentum!r}")


FULL = DigitsConfig()
QUICK = DigitsConfig(epochs=3)


@dataclass(frozen=True)
class DigitsData:
    """The standardized split: float32 features, one-hot float32 targets, integer labels."""

    x_train: np.ndarray
    onehot_train: np.ndarray
    y_train: np.ndarray
    x_test: np.ndarray
    y_test: np.ndarray


def load_data(test_fraction: float = 0.25) -> DigitsData:
    """scikit-learn's digits, split (stratified, ``random_state=0``) and standardized."""
    from sklearn.datasets import load_digits
    from sklearn.model_selection import train_test_split

    features, labels = load_digits(return_X_y=True)
    x_train, x_test, y_train, y_test = train_test_split(
        features, labels, test_size=test_fraction, random_state=0, stratify=labels)
    mean = x_train.mean(axis=0)
    deviation = x_train.std(axis=0)
    deviation[deviation == 0] = 1.0  # pixels that are always blank in the training set
    x_train = ((x_train - mean) / deviation).astype(np.float32)
    x_test = ((x_test - mean) / deviation).astype(np.float32)
    onehot = np.eye(CLASSES, dtype=np.float32)[y_train]
    return DigitsData(x_train, onehot, y_train.astype(np.int64), x_test, y_test.astype(np.int64))


class DigitsMLP(ug.nn.Cell):
    """``Dense(64, hidden, tanh) -> Dense(hidden, 10)``: logits of the ten digits.

    Example:
        >>> import unigrad as ug
        >>> _ = ug.manual_seed(0)
        >>> DigitsMLP(hidden=16)(ug.zeros(2, 64)).shape
        (2, 10)
    """

    def __init__(self, hidden: int = 64, features: int = 64):
        super().__init__()
        self.hidden = ug.nn.Dense(features, hidden, activation="tanh")
        self.classifier = ug.nn.Dense(hidden, CLASSES)

    def construct(self, x: ug.Tensor) -> ug.Tensor:
        return self.classifier(self.hidden(x))


class LossScaledUpdate:
    """What the accumulator runs on the summed gradients: unscale, check, clip, step, adjust.

    MindSpore's loss-scaling recipe: ``grads = scaler.unscale(grads)``; ``finite
    = ug.amp.all_finite(grads)``; if finite, clip the global norm to
    ``clip_norm`` and call ``optimizer(grads)``; either way
    ``scaler.adjust(finite)``. It has the optimizer's ``parameters``, so
    ``ug.nn.GradAccumulator`` accepts it in place of the optimizer. With
    ``jit=True`` the unscaling and the clip-and-step are compiled.

    Example:
        >>> import unigrad as ug
        >>> w = ug.nn.Parameter(ug.tensor([1.0, 1.0]), name="w")
        >>> scaler = ug.amp.DynamicLossScaler(scale_value=4.0, scale_factor=2, scale_window=10)
        >>> update = LossScaledUpdate(ug.optim.SGD([w], lr=1.0), scaler, clip_norm=1.0)
        >>> update((ug.tensor([12.0, 16.0]),))     # unscaled (3, 4), clipped to norm 1
        True
        >>> [round(value, 4) for value in w.tolist()]
        [0.4, 0.2]
        >>> update((ug.tensor([float("inf"), 0.0]),)), update.skipped, float(scaler.scale_value)
        (False, 1, 2.0)
    """

    def __init__(self, optimizer, scaler: ug.amp.LossScaler, clip_norm: float,
                 jit: bool = False):
        self.optimizer = optimizer
        self.parameters = tuple(optimizer.parameters)
        self.scaler = scaler
        self.clip_norm = clip_norm
        self.skipped = 0
        self.updates = 0
        self._unscale: Callable = ug.jit(self._unscale_eager) if jit else self._unscale_eager
        self._clip_and_step: Callable = (ug.jit(self._clip_and_step_eager) if jit
                                         else self._clip_and_step_eager)

    def _unscale_eager(self, grads: tuple) -> tuple:
        return tuple(self.scaler.unscale(tuple(grads)))

    def _clip_and_step_eager(self, grads: tuple) -> None:
        self.optimizer(ug.ops.clip_by_global_norm(tuple(grads), self.clip_norm))

    def __call__(self, grads: Sequence[ug.Tensor]) -> bool:
        """Update the parameters with ``grads`` unless they overflowed; return whether it did."""
        grads = self._unscale(tuple(grads))
        finite = ug.amp.all_finite(grads)
        stepped = bool(finite)
        if stepped:
            self._clip_and_step(grads)
            self.updates += 1
        else:
            self.skipped += 1
        self.scaler.adjust(finite)
        return stepped


@dataclass
class DigitsRun:
    """One training run: accuracy, loss per update, test accuracy per epoch, timings."""

    mode: str
    accuracy: float
    losses: list[float]
    epoch_accuracies: list[float]
    epoch_seconds: list[float]
    skipped: int
    final_scale: float

    @property
    def seconds(self) -> float:
        """Total training time (all epochs, test evaluations excluded)."""
        return float(sum(self.epoch_seconds))

    @property
    def steady_epoch_seconds(self) -> float:
        """Mean time of an epoch after the first (the first one compiles in graph mode)."""
        later = self.epoch_seconds[1:] or self.epoch_seconds
        return float(np.mean(later))


def accuracy(net: ug.nn.Cell, features: np.ndarray, labels: np.ndarray) -> float:
    """Fraction of ``features`` whose arg-max logit is the label."""
    net.set_train(False)
    with ug.no_grad():
        predictions = net(ug.tensor(features)).numpy().argmax(axis=1)
    net.set_train(True)
    return float((predictions == labels).mean())


def train(config: DigitsConfig, data: DigitsData, seed: int = 0, jit: bool = False,
          progress: bool = False, description: str = "digits") -> DigitsRun:
    """Train a fresh :class:`DigitsMLP` (``ug.manual_seed(seed)``) and return the run."""
    ug.manual_seed(seed)
    net = DigitsMLP(config.hidden, data.x_train.shape[1])
    weights = net.trainable_params()
    optimizer = ug.optim.Momentum(weights, learning_rate=config.learning_rate,
                                  momentum=config.momentum)
    scaler = ug.amp.DynamicLossScaler(scale_value=config.scale_value,
                                      scale_factor=config.scale_factor,
                                      scale_window=config.scale_window)
    loss_fn = ug.nn.SoftmaxCrossEntropyWithLogits(sparse=False, reduction="mean")
    steps = config.accumulate_steps

    def forward_fn(features: ug.Tensor, targets: ug.Tensor) -> tuple[ug.Tensor, ug.Tensor]:
        loss = loss_fn(net(features), targets)
        return scaler.scale(loss / steps), loss

    grad_fn = ug.value_and_grad(forward_fn, grad_position=None, weights=weights, has_aux=True)
    if jit:
        grad_fn = ug.jit(grad_fn)
    update = LossScaledUpdate(optimizer, scaler, config.clip_norm, jit=jit)
    accumulator = ug.nn.GradAccumulator(update, accumulate_steps=steps)

    rng = np.random.default_rng(seed)
    group = config.batch_size * steps
    updates_per_epoch = len(data.x_train) // group
    if updates_per_epoch == 0:
        raise ValueError(f"digits: batch_size * accumulate_steps = {group} exceeds the "
                         f"{len(data.x_train)} training images")
    losses: list[float] = []
    epoch_accuracies: list[float] = []
    epoch_seconds: list[float] = []
    with progress_bar(config.epochs * updates_per_epoch, description, enabled=progress) as bar:
        for _ in range(config.epochs):
            order = rng.permutation(len(data.x_train))
            start = time.perf_counter()
            for update_index in range(updates_per_epoch):
                micro_losses = []
                for micro in range(steps):
                    begin = (update_index * steps + micro) * config.batch_size
                    batch = order[begin:begin + config.batch_size]
                    (_, loss), grads = grad_fn(ug.tensor(data.x_train[batch]),
                                               ug.tensor(data.onehot_train[batch]))
                    accumulator(grads)
                    micro_losses.append(loss.item())
                losses.append(float(np.mean(micro_losses)))
                bar.update(1)
            epoch_seconds.append(time.perf_counter() - start)
            epoch_accuracies.append(accuracy(net, data.x_test, data.y_test))
            bar.set_postfix(loss=f"{losses[-1]:.3f}", test_acc=f"{epoch_accuracies[-1]:.3f}")
    return DigitsRun("graph (ug.jit)" if jit else "eager", epoch_accuracies[-1], losses,
                     epoch_accuracies, epoch_seconds, update.skipped,
                     float(scaler.scale_value))


def _power_of_two(value: float) -> str:
    """``2^k`` for an exact power of two (the loss scales), ``%g`` otherwise."""
    exponent = np.log2(value) if value > 0 else 0.5
    return f"2^{int(exponent)}" if float(exponent).is_integer() else f"{value:g}"


def _plot(runs: list[DigitsRun], options: DemoOptions) -> list:
    figure, (loss_axes, accuracy_axes) = new_figure(2, width=5.0, height=3.8)
    for run, style in zip(runs, ("-", "--")):
        updates = np.arange(1, len(run.losses) + 1)
        loss_axes.semilogy(updates, run.losses, style, linewidth=1, label=run.mode)
        epochs = np.arange(1, len(run.epoch_accuracies) + 1)
        accuracy_axes.plot(epochs, 100 * np.asarray(run.epoch_accuracies), style, marker="o",
                           markersize=3, label=run.mode)
    loss_axes.set(title="training loss (cross entropy)", xlabel="update")
    accuracy_axes.set(title="test accuracy", xlabel="epoch", ylabel="%")
    for axes in (loss_axes, accuracy_axes):
        axes.legend(fontsize="small")
    return [save_figure(figure, options.out, "digits.png")]


def run(options: DemoOptions) -> DemoResult:
    """Train (eagerly, and with ``options.jit`` also compiled), plot, and tabulate."""
    config = QUICK if options.quick else FULL
    data = load_data()
    runs = [train(config, data, options.seed, jit=False, progress=options.progress,
                  description="digits (eager)")]
    if options.jit:
        runs.append(train(config, data, options.seed, jit=True, progress=options.progress,
                          description="digits (ug.jit)"))
    updates = len(runs[0].losses)
    rows = [[run.mode, updates, f"{run.losses[-1]:.4f}", f"{100 * run.accuracy:.2f}%",
             run.skipped, _power_of_two(run.final_scale), seconds(run.seconds),
             f"{run.steady_epoch_seconds / (updates / config.epochs) * 1e3:.3f}"]
            for run in runs]
    table = format_table(["digits: mode", "updates", "final loss", "test accuracy",
                          "skipped (overflow)", "loss scale", "train time", "ms/update"], rows)
    table += (f"\n{len(data.x_train)} train / {len(data.x_test)} test images; each update sums "
              f"{config.accumulate_steps} micro-batches of {config.batch_size}, clips the "
              f"global norm to {config.clip_norm:g}, Momentum(lr={config.learning_rate:g})")
    metrics = {"accuracy": runs[0].accuracy, "final_loss": runs[0].losses[-1],
               "seconds": runs[0].seconds, "updates": updates, "skipped": runs[0].skipped}
    if options.jit:
        eager, graph = runs
        speedup = eager.steady_epoch_seconds / graph.steady_epoch_seconds
        compile_seconds = graph.epoch_seconds[0] - graph.steady_epoch_seconds
        table += (f"\ngraph mode: {speedup:.2f}x faster than eager (steady state, epochs 2+); "
                  f"tracing and compiling cost about {seconds(max(compile_seconds, 0.0))} "
                  f"in its first epoch")
        metrics.update(jit_accuracy=graph.accuracy, speedup=speedup,
                       compile_seconds=compile_seconds)
    return DemoResult(NAME, table, _plot(runs, options), metrics)
